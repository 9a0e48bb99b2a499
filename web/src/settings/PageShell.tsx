// The frame of a page with its own URL (Settings, Admin): the header, a
// section nav and the section itself.

import type { ReactNode } from "react";
import { ArrowLeft, BookOpen } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { User } from "../api/types";
import { UserMenu } from "../layout/UserMenu";
import { navigate, withOpen } from "../layout/route";
import "./pages.css";

export interface NavItem {
  id: string;
  label: string;
  href: string;
}

export function PageShell(props: { user: User; title: string; navLabel: string; items: NavItem[]; active: string; children: ReactNode }) {
  const { t } = useTranslation("settings");
  const go = (href: string) => (e: React.MouseEvent) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(withOpen(href));
  };
  return (
    <div className="app page">
      <header className="header">
        <a className="skip-link" href="#main">
          {t("shell.skip")}
        </a>
        <div className="brand">
          <BookOpen size={18} aria-hidden />
          <span>Knowspace</span>
        </div>
        <UserMenu user={props.user} />
      </header>
      <div className="page-body">
        <nav className="page-nav" aria-label={props.navLabel}>
          <a className="page-back" href="/" onClick={go("/")}>
            <ArrowLeft size={14} aria-hidden /> {t("shell.back")}
          </a>
          <ul>
            {props.items.map((it) => (
              <li key={it.id}>
                <a href={it.href} aria-current={it.id === props.active ? "page" : undefined} onClick={go(it.href)}>
                  {it.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" className="page-main" tabIndex={-1}>
          <h1 className="page-title">{props.title}</h1>
          {props.children}
        </main>
      </div>
    </div>
  );
}
