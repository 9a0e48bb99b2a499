import { useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { ReactNode } from "react";
import { Dialog } from "./Dialog";
import { messageOf } from "./errors";

/** ConfirmDialog asks before a destructive action (typically a write hook's mutateAsync) and shows its failure. */
export function ConfirmDialog(props: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  // Once confirmed the dialog closes; its buttons stay off until it has.
  const confirm = useMutation({ mutationFn: () => props.onConfirm(), onSuccess: () => props.onClose() });
  return (
    <Dialog title={props.title} onClose={props.onClose}>
      <div className="dialog-text">{props.children}</div>
      {confirm.isError && (
        <p className="error" role="alert">
          {messageOf(confirm.error)}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={props.onClose} autoFocus>
          {t("cancel")}
        </button>
        <button type="button" className="btn danger" onClick={() => confirm.mutate()} disabled={confirm.isPending || confirm.isSuccess}>
          {props.confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
