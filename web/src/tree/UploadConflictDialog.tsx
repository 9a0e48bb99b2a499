// Asks what to do with an uploaded file whose name is taken in its folder.

import { useTranslation } from "react-i18next";
import { useState } from "react";
import { Dialog } from "../ui/Dialog";
import { formatBytes, formatDate } from "../ui/format";
import type { ConflictAnswer, ConflictChoice, ConflictQuestion } from "./uploadConflicts";

export function UploadConflictDialog(props: { question: ConflictQuestion; onAnswer: (a: ConflictAnswer) => void }) {
  const { t } = useTranslation("tree");
  const { name, existing, more } = props.question;
  const [applyToAll, setApplyToAll] = useState(false);
  const answer = (choice: ConflictChoice) => props.onAnswer({ choice, applyToAll: more && applyToAll });
  const isDir = existing.kind === "dir";
  return (
    // Escape is Cancel: the file is skipped, nothing is replaced.
    <Dialog title={t("conflict.title")} onClose={() => answer("cancel")} className="conflict-dialog">
      <div className="dialog-text">
        <p>
          {isDir
            ? t("conflict.existsFolder", { name })
            : t("conflict.existsFile", { name, size: formatBytes(existing.size), date: formatDate(existing.updated_at) })}
        </p>
        <p className="muted small">
          {isDir
            ? t("conflict.folderHint")
            : t("conflict.fileHint")}
        </p>
      </div>
      {more && (
        <label className="check-line">
          <input type="checkbox" checked={applyToAll} onChange={(e) => setApplyToAll(e.target.checked)} /> {t("conflict.applyToAll")}
        </label>
      )}
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={() => answer("cancel")}>
          {t("common:cancel")}
        </button>
        <button type="button" className="btn" onClick={() => answer("rename")} autoFocus={isDir}>
          {t("conflict.keepBoth")}
        </button>
        {!isDir && (
          <button type="button" className="btn primary" onClick={() => answer("replace")} autoFocus>
            {t("conflict.replace")}
          </button>
        )}
      </div>
    </Dialog>
  );
}
