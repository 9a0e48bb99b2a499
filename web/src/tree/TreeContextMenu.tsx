// The rows' context menu (right-click, the ContextMenu key, Shift+F10): the
// tree's actions that apply to rows (treeActions.ts), for the whole
// selection. WAI-ARIA menu keys: it opens with no item active, the arrows,
// Home and End move (disabled items included, so they can be read), Enter or
// Space runs one, Escape and Tab close it; focus then goes back to the tree,
// whose current row it was opened on.

import { useTranslation } from "react-i18next";
import { useLayoutEffect, useRef, useState } from "react";
import type { KeyboardEvent } from "react";
import { createPortal } from "react-dom";
import { menuActions, tooltipOf } from "./treeActions";
import type { TreeAction, TreeSelection } from "./treeActions";

/** MENU_MARGIN keeps the menu this far from the window's edges. */
const MENU_MARGIN = 4;

export function TreeContextMenu(props: {
  at: { x: number; y: number };
  selection: TreeSelection;
  /** what the menu acts on, for its accessible name */
  label: string;
  onRun: (action: TreeAction) => void;
  /** close it; refocus: give focus back to the tree (not after a click elsewhere) */
  onClose: (refocus: boolean) => void;
}) {
  const { t } = useTranslation("tree");
  const { selection: s, onClose } = props;
  const items = menuActions(s);
  const ref = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState(props.at);

  // Inside the window, then focus on the menu itself: no item is active until an arrow says so.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const r = el.getBoundingClientRect();
    setPos({
      x: Math.max(MENU_MARGIN, Math.min(props.at.x, window.innerWidth - r.width - MENU_MARGIN)),
      y: Math.max(MENU_MARGIN, Math.min(props.at.y, window.innerHeight - r.height - MENU_MARGIN)),
    });
    el.focus({ preventScroll: true });
  }, [props.at]);

  useLayoutEffect(() => {
    const away = (e: Event) => {
      if (ref.current && e.target instanceof Node && ref.current.contains(e.target)) return;
      onClose(false);
    };
    const gone = () => onClose(false);
    document.addEventListener("mousedown", away, true);
    window.addEventListener("resize", gone);
    window.addEventListener("blur", gone);
    document.addEventListener("scroll", away, true);
    return () => {
      document.removeEventListener("mousedown", away, true);
      window.removeEventListener("resize", gone);
      window.removeEventListener("blur", gone);
      document.removeEventListener("scroll", away, true);
    };
  }, [onClose]);

  const buttons = () => [...(ref.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];
  const run = (a: TreeAction) => {
    if (!a.enabled(s)) return;
    props.onRun(a);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const list = buttons();
    const i = list.findIndex((b) => b === document.activeElement);
    const to = (j: number) => list[(j + list.length) % list.length]?.focus();
    switch (e.key) {
      case "ArrowDown":
        to(i < 0 ? 0 : i + 1);
        break;
      case "ArrowUp":
        to(i < 0 ? list.length - 1 : i - 1);
        break;
      case "Home":
        to(0);
        break;
      case "End":
        to(list.length - 1);
        break;
      case "Escape":
      case "Tab":
        onClose(true);
        break;
      case "Enter":
      case " ": {
        const a = i < 0 ? undefined : items[i];
        if (a) run(a);
        break;
      }
      default:
        return;
    }
    e.preventDefault();
    e.stopPropagation();
  };

  return createPortal(
    <div
      ref={ref}
      className="menu tree-menu"
      role="menu"
      aria-label={props.label}
      tabIndex={-1}
      style={{ left: pos.x, top: pos.y }}
      onKeyDown={onKeyDown}
      onContextMenu={(e) => e.preventDefault()}
    >
      {items.map((a) => {
        const on = a.enabled(s);
        return (
          <button
            key={a.id}
            type="button"
            role="menuitem"
            className="menu-item"
            tabIndex={-1}
            aria-disabled={on ? undefined : true}
            data-action={a.id}
            title={on ? undefined : t(tooltipOf(a, s), { action: t(a.label) })}
            onClick={() => run(a)}
          >
            <a.icon size={15} aria-hidden /> {t(a.label)}
          </button>
        );
      })}
    </div>,
    document.body,
  );
}
