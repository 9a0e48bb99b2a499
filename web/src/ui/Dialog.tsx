// A modal built on the native <dialog>: the browser makes the page behind it
// inert and reports Escape as "cancel". On top of that, Tab and Shift+Tab
// cycle inside the dialog (trapTab), and closing it gives focus back to the
// control that opened it.

import { useEffect, useRef, useState } from "react";
import type { ReactNode } from "react";
import { trapTab } from "./focusTrap";

// Where each open dialog gives focus back to, so a dialog that replaces
// another (a form by its result) gives it back where the first came from.
const openers = new WeakMap<HTMLDialogElement, Element[]>();

export function Dialog(props: { title: string; onClose: () => void; children: ReactNode; className?: string }) {
  const ref = useRef<HTMLDialogElement>(null);
  const onCloseRef = useRef(props.onClose);
  onCloseRef.current = props.onClose;
  // The openers are whatever had focus when the dialog first rendered (before
  // showModal moves focus inside), then the openers of the dialog that held
  // it; focus on <body> (a pressed button went away or was disabled) was
  // held by the topmost open dialog.
  const [opener] = useState<Element[]>(() => {
    if (typeof document === "undefined") return [];
    const cur = document.activeElement;
    const lost = !cur || cur === document.body;
    const open = document.querySelectorAll<HTMLDialogElement>("dialog[open]");
    const host = lost ? open[open.length - 1] : cur.closest("dialog");
    return [...(lost ? [] : [cur]), ...((host && openers.get(host)) ?? [])];
  });
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    openers.set(d, opener);
    if (!d.open) d.showModal();
    const onCancel = (e: Event) => {
      e.preventDefault();
      onCloseRef.current();
    };
    // On the document, so Tab also works when focus fell to <body> (a control
    // inside was removed); only the topmost open dialog handles it.
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key !== "Tab" || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
      const open = document.querySelectorAll("dialog[open]");
      if (open[open.length - 1] !== d) return;
      if (trapTab(d, e.shiftKey, document.activeElement)) e.preventDefault();
    };
    d.addEventListener("cancel", onCancel);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      d.removeEventListener("cancel", onCancel);
      document.removeEventListener("keydown", onKeyDown);
      if (d.open) d.close();
      // Back to the opener, unless it went away, got disabled, or focus already
      // moved somewhere deliberate (another dialog, an opened preview).
      const cur = document.activeElement;
      const focusLost = cur === null || cur === document.body || !cur.isConnected || d.contains(cur);
      if (!focusLost) return;
      for (const el of opener) {
        if (!(el instanceof HTMLElement) || !el.isConnected || d.contains(el) || el.matches(":disabled")) continue;
        el.focus({ preventScroll: true });
        if (document.activeElement === el) break;
      }
    };
    // opener is fixed for the dialog's life.
  }, [opener]);
  return (
    <dialog ref={ref} className={`dialog ${props.className ?? ""}`} aria-label={props.title}>
      <h2 className="dialog-title">{props.title}</h2>
      {props.children}
    </dialog>
  );
}
