// Asks what to do with an uploaded file whose name is taken in its folder.

import { useState } from "react";
import { Dialog } from "../ui/Dialog";
import { formatBytes, formatDate } from "../ui/format";
import type { ConflictAnswer, ConflictChoice, ConflictQuestion } from "./uploadConflicts";

export function UploadConflictDialog(props: { question: ConflictQuestion; onAnswer: (a: ConflictAnswer) => void }) {
  const { name, existing, more } = props.question;
  const [applyToAll, setApplyToAll] = useState(false);
  const answer = (choice: ConflictChoice) => props.onAnswer({ choice, applyToAll: more && applyToAll });
  const isDir = existing.kind === "dir";
  return (
    // Escape is Cancel: the file is skipped, nothing is replaced.
    <Dialog title="File already exists" onClose={() => answer("cancel")} className="conflict-dialog">
      <div className="dialog-text">
        <p>
          <strong>{name}</strong> already exists here
          {isDir ? " as a folder" : ` (${formatBytes(existing.size)}, updated ${formatDate(existing.updated_at)})`}.
        </p>
        <p className="muted small">
          {isDir
            ? "A folder cannot be replaced by a file; keep both to upload it under a new name."
            : "Replace keeps the current content as a previous version. Keep both uploads it under a new name."}
        </p>
      </div>
      {more && (
        <label className="check-line">
          <input type="checkbox" checked={applyToAll} onChange={(e) => setApplyToAll(e.target.checked)} /> Apply to all
          remaining conflicts of this upload
        </label>
      )}
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={() => answer("cancel")}>
          Cancel
        </button>
        <button type="button" className="btn" onClick={() => answer("rename")} autoFocus={isDir}>
          Keep both
        </button>
        {!isDir && (
          <button type="button" className="btn primary" onClick={() => answer("replace")} autoFocus>
            Replace
          </button>
        )}
      </div>
    </Dialog>
  );
}
