import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { FormEvent } from "react";
import { Dialog } from "./Dialog";
import { validateName } from "../api/uri";
import { messageOf } from "./errors";

/**
 * NameDialog asks for a name: of a file or folder (new folder, rename) unless
 * validate says otherwise; onSubmit (typically a write hook's mutateAsync)
 * takes it, and its failure shows here.
 */
export function NameDialog(props: {
  title: string;
  label: string;
  initial?: string;
  submitLabel: string;
  /** the rule the name must meet; file and folder names by default */
  validate?: (name: string) => string | null;
  onSubmit: (name: string) => Promise<void>;
  onClose: () => void;
}) {
  const [name, setName] = useState(props.initial ?? "");
  const { t } = useTranslation();
  const [problem, setProblem] = useState<string | null>(null);
  // Once it worked the dialog closes; its buttons stay off until it has.
  const save = useMutation({ mutationFn: (n: string) => props.onSubmit(n), onSuccess: () => props.onClose() });
  const error = problem ?? (save.isError ? messageOf(save.error) : null);

  function submit(e: FormEvent) {
    e.preventDefault();
    const wrong = (props.validate ?? validateName)(name);
    setProblem(wrong);
    if (!wrong) save.mutate(name);
  }

  return (
    <Dialog title={props.title} onClose={props.onClose}>
      <form onSubmit={submit} className="dialog-form">
        <label className="field">
          <span>{props.label}</span>
          <input
            autoFocus
            value={name}
            onChange={(e) => setName(e.target.value)}
            onFocus={(e) => {
              // Select the stem so typing replaces the name but keeps the extension.
              const dot = e.target.value.lastIndexOf(".");
              e.target.setSelectionRange(0, dot > 0 ? dot : e.target.value.length);
            }}
          />
        </label>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={props.onClose}>
            {t("cancel")}
          </button>
          <button type="submit" className="btn primary" disabled={save.isPending || save.isSuccess}>
            {props.submitLabel}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
