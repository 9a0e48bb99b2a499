import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { ReactNode } from "react";
import { Dialog } from "./Dialog";
import { messageOf } from "./errors";

/** ConfirmDialog asks before a destructive action and shows its failure. */
export function ConfirmDialog(props: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      await props.onConfirm();
      props.onClose();
    } catch (err) {
      setError(messageOf(err));
      setBusy(false);
    }
  }
  return (
    <Dialog title={props.title} onClose={props.onClose}>
      <div className="dialog-text">{props.children}</div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={props.onClose} autoFocus>
          {t("cancel")}
        </button>
        <button type="button" className="btn danger" onClick={confirm} disabled={busy}>
          {props.confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
