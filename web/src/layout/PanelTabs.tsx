import { Bot, FileText, FolderTree } from "lucide-react";
import type { KeyboardEvent } from "react";

export type PanelName = "tree" | "preview" | "agent";

const TABS: { name: PanelName; label: string; Icon: typeof Bot }[] = [
  { name: "tree", label: "Files", Icon: FolderTree },
  { name: "preview", label: "Preview", Icon: FileText },
  { name: "agent", label: "KnowAgent", Icon: Bot },
];

/** PanelTabs is the bottom tab bar that switches panels on narrow screens. */
export function PanelTabs({ active, onChange }: { active: PanelName; onChange: (p: PanelName) => void }) {
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
    <nav className="tabbar" role="tablist" aria-label="Panels" onKeyDown={onKeyDown}>
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
          <span>{label}</span>
        </button>
      ))}
    </nav>
  );
}
