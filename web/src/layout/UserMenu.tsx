import { useEffect, useRef, useState } from "react";
import { ChevronDown, LogOut, Settings, ShieldCheck, UserRound } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { User } from "../api/types";
import { useSession } from "../auth/session";
import { menuMove } from "./menuMove";
import { navigate, withOpen } from "./route";

/** UserMenu shows who is signed in, with a menu holding Settings, sign-out and, for admins, the Admin page. */
export function UserMenu({ user }: { user: User }) {
  const { t } = useTranslation("settings");
  const { signOut } = useSession();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const isAdmin = user.role === "admin";

  const go = (path: string) => {
    setOpen(false);
    navigate(withOpen(path));
  };

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        setOpen(false);
        ref.current?.querySelector<HTMLButtonElement>("button")?.focus();
        return;
      }
      const items = [...(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
      const next = menuMove(items.indexOf(document.activeElement as HTMLElement), items.length, e.key);
      if (next === null) return;
      e.preventDefault();
      items[next]?.focus();
    };
    document.addEventListener("mousedown", onDown);
    document.addEventListener("keydown", onKey);
    ref.current?.querySelector<HTMLButtonElement>('[role="menuitem"]')?.focus();
    return () => {
      document.removeEventListener("mousedown", onDown);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);

  return (
    <div className="user-menu" ref={ref}>
      <button
        type="button"
        className="btn ghost"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        data-testid="user-menu-button"
      >
        <UserRound size={16} aria-hidden />
        <span className="user-name">{user.username}</span>
        <ChevronDown size={14} aria-hidden />
      </button>
      {open && (
        <div className="menu" role="menu" aria-label={t("menu.label")}>
          <div className="menu-caption">
            {t("menu.signedInAs")} <strong>{user.username}</strong>
            {user.role ? <span className="badge">{user.role}</span> : null}
          </div>
          <button type="button" role="menuitem" className="menu-item" onClick={() => go("/settings")}>
            <Settings size={15} aria-hidden /> {t("menu.settings")}
          </button>
          {isAdmin && (
            <button type="button" role="menuitem" className="menu-item" onClick={() => go("/admin")}>
              <ShieldCheck size={15} aria-hidden /> {t("menu.admin")}
            </button>
          )}
          <button type="button" role="menuitem" className="menu-item" onClick={signOut}>
            <LogOut size={15} aria-hidden /> {t("menu.signOut")}
          </button>
        </div>
      )}
    </div>
  );
}
