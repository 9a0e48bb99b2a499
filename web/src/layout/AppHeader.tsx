import { useTranslation } from "react-i18next";
import { BookOpen } from "lucide-react";
import type { User } from "../api/types";
import { UserMenu } from "./UserMenu";

export function AppHeader({ user }: { user: User }) {
  const { t } = useTranslation("layout");
  return (
    <header className="header">
      <a className="skip-link" href="#main">
        {t("skipToContent")}
      </a>
      {/* The page's one level-one heading: without a file open there is no other (axe page-has-heading-one). */}
      <h1 className="brand">
        <BookOpen size={18} aria-hidden />
        <span>Knowspace</span>
      </h1>
      <UserMenu user={user} />
    </header>
  );
}
