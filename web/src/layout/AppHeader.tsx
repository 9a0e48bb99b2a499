import { BookOpen } from "lucide-react";
import type { User } from "../api/types";
import { UserMenu } from "./UserMenu";

export function AppHeader({ user }: { user: User }) {
  return (
    <header className="header">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <div className="brand">
        <BookOpen size={18} aria-hidden />
        <span>Knowspace</span>
      </div>
      <UserMenu user={user} />
    </header>
  );
}
