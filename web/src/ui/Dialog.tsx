// A modal built on the native <dialog>: the browser traps focus, makes the
// page behind it inert and closes it on Escape.

import { useEffect, useRef } from "react";
import type { ReactNode } from "react";

export function Dialog(props: { title: string; onClose: () => void; children: ReactNode; className?: string }) {
  const ref = useRef<HTMLDialogElement>(null);
  const onCloseRef = useRef(props.onClose);
  onCloseRef.current = props.onClose;
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (!d.open) d.showModal();
    const onCancel = (e: Event) => {
      e.preventDefault();
      onCloseRef.current();
    };
    d.addEventListener("cancel", onCancel);
    return () => {
      d.removeEventListener("cancel", onCancel);
      if (d.open) d.close();
    };
  }, []);
  return (
    <dialog ref={ref} className={`dialog ${props.className ?? ""}`} aria-label={props.title}>
      <h2 className="dialog-title">{props.title}</h2>
      {props.children}
    </dialog>
  );
}
