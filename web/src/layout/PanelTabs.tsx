import { useTranslation } from "react-i18next";
import { Bot, FileText, FolderTree } from "lucide-react";
import type { KeyboardEvent } from "react";

export type PanelName = "tree" | "preview" | "agent";

const TABS: { name: PanelName; label: "files" | "preview" | "agent"; Icon: typeof Bot }[] = [
  { name: "tree", label: "files", Icon: FolderTree },
  { name: "preview", label: "preview", Icon: FileText },
  { name: "agent", label: "agent", Icon: Bot },
];

/** PanelTabs is the bottom tab bar that switches panels on narrow screens. */
export function PanelTabs({ active, onChange }: { active: PanelName; onChange: (p: PanelName) => void }) {
  const { t } = useTranslation("layout");
  function onKeyDown(e: KeyboardEvent) {
    const i = TABS.findIndex((t) => t.name === active);
    let next = i;
    if (e.key === "ArrowRight") next = (i + 1) % TABS.length;
    else if (e.key === "ArrowLeft") next = (i + TABS.length - 1) % TABS.length;
    else return;
    e.preventDefault();
    const tab = TABS[next];
    if (tab) {
      onChange(tab.name);
      document.getElementById(`tab-${tab.name}`)?.focus();
    }
  }
  return (
    <nav className="tabbar" role="tablist" aria-label={t("panels")} onKeyDown={onKeyDown}>
      {TABS.map(({ name, label, Icon }) => (
        <button
          key={name}
          id={`tab-${name}`}
          role="tab"
          type="button"
          aria-selected={active === name}
          aria-controls={`panel-${name}`}
          tabIndex={active === name ? 0 : -1}
          className="tab"
          onClick={() => onChange(name)}
        >
          <Icon size={18} aria-hidden />
          <span>{t(label)}</span>
        </button>
      ))}
    </nav>
  );
}
