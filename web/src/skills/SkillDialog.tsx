// The skill form (issue 16): name, description, the prompt with its count
// against the limit, a preview of the whole prompt the model would get for a
// file, and each field's error beside it. Nothing is stored until Save.

import { useTranslation } from "react-i18next";
import { useId, useState } from "react";
import type { FormEvent, ReactNode } from "react";
import type { PromptPreview, Skill, SkillInput } from "../api/skills";
import { Dialog } from "../ui/Dialog";
import { messageOf } from "../ui/errors";
import { PROMPT_LIMIT, charCount, countText, localErrors, serverErrors } from "./model";
import type { FieldErrors, SkillField } from "./model";
import { usePreviewPrompt, useSaveSkill } from "./skillQueries";

interface Props {
  title: string;
  initial: SkillInput;
  /** the skill being edited; absent for a new one (a draft, a duplicate) */
  skillID?: string;
  /** the file the preview shows the prompt for, and how to name it */
  previewURI?: string;
  previewName?: string;
  /** a line above the form, e.g. that a generated draft is not saved yet */
  note?: ReactNode;
  onSaved: (skill: Skill) => void;
  onClose: () => void;
}

export function SkillDialog(props: Props) {
  const { t } = useTranslation("skills");
  const [input, setInput] = useState<SkillInput>(props.initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string | null>(null);
  const save = useSaveSkill();
  // The last preview stays on screen while the next one loads.
  const [preview, setPreview] = useState<PromptPreview | null>(null);
  const asked = usePreviewPrompt();
  const previewError = asked.isError ? messageOf(asked.error) : null;
  const id = useId();
  const count = charCount(input.prompt);

  const set = (field: SkillField, value: string) => {
    setInput((cur) => ({ ...cur, [field]: field === "output_language" ? value || null : value }));
    // The message was about the old text.
    setErrors((cur) => (cur[field] ? { ...cur, [field]: undefined } : cur));
  };

  function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const clean: SkillInput = {
      ...input,
      name: input.name.trim(),
      description: input.description.trim(),
      output_language: input.output_language?.trim() || null,
    };
    const local = localErrors(clean);
    setErrors(local);
    if (Object.keys(local).length) return;
    save.mutate(
      { id: props.skillID, input: clean },
      {
        onSuccess: props.onSaved,
        onError: (err) => {
          const placed = serverErrors(err);
          if (placed) setErrors(placed);
          else setError(messageOf(err));
        },
      },
    );
  }

  function showPreview() {
    if (!props.previewURI) return;
    asked.mutate(
      { prompt: input.prompt, output_language: input.output_language?.trim() || null, uri: props.previewURI },
      { onSuccess: setPreview, onError: () => setPreview(null) },
    );
  }

  /** field wires a control to its error line. */
  const field = (name: SkillField, extra?: string) => ({
    id: `${id}-${name}`,
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": [errors[name] ? `${id}-${name}-error` : "", extra ?? ""].filter(Boolean).join(" ") || undefined,
  });
  const fieldError = (name: SkillField) =>
    errors[name] ? (
      <span className="error small" id={`${id}-${name}-error`}>
        {errors[name]}
      </span>
    ) : null;

  return (
    <Dialog title={props.title} onClose={props.onClose} className="wide skill-dialog">
      <form className="dialog-form skill-form" onSubmit={submit} noValidate>
        {props.note && <p className="notice small">{props.note}</p>}
        <div className="field">
          <label htmlFor={`${id}-name`}>{t("form.name")}</label>
          <input className="text-input" autoFocus value={input.name} onChange={(e) => set("name", e.target.value)} {...field("name")} />
          {fieldError("name")}
        </div>
        <div className="field">
          <label htmlFor={`${id}-description`}>{t("form.description")}</label>
          <input className="text-input" placeholder={t("form.optional")} value={input.description} onChange={(e) => set("description", e.target.value)} {...field("description")} />
          {fieldError("description")}
        </div>
        <div className="field">
          <label htmlFor={`${id}-prompt`}>{t("form.prompt")}</label>
          <span className="small muted" id={`${id}-prompt-hint`}>
            {t("form.promptHint")}
          </span>
          <textarea
            className="prompt-editor"
            rows={10}
            value={input.prompt}
            onChange={(e) => set("prompt", e.target.value)}
            {...field("prompt", `${id}-prompt-hint ${id}-count`)}
          />
          <span id={`${id}-count`} className={`small prompt-count ${count > PROMPT_LIMIT ? "error" : "muted"}`} data-testid="prompt-count">
            {countText(count)}
          </span>
          {fieldError("prompt")}
        </div>
        <div className="field">
          <label htmlFor={`${id}-output_language`}>{t("form.language")}</label>
          <input
            className="text-input"
            placeholder={t("form.languagePlaceholder")}
            value={input.output_language ?? ""}
            onChange={(e) => set("output_language", e.target.value)}
            {...field("output_language")}
          />
          {fieldError("output_language")}
        </div>
        <section className="prompt-preview" aria-label={t("form.preview")}>
          <div className="pane-bar">
            <span className="small muted">
              {props.previewURI
                ? t("form.previewFor", { name: props.previewName ?? props.previewURI })
                : t("form.previewPick")}
            </span>
            <button
              type="button"
              className="btn small"
              onClick={showPreview}
              disabled={!props.previewURI || asked.isPending || input.prompt.trim() === ""}
            >
              {asked.isPending ? t("form.previewLoading") : preview ? t("form.previewRefresh") : t("form.previewButton")}
            </button>
          </div>
          {previewError && <p className="error small">{previewError}</p>}
          {preview && (
            <div data-testid="prompt-preview">
              <h3 className="small preview-part">{t("form.system")}</h3>
              <pre className="read-text" tabIndex={0} aria-label={t("form.systemPrompt")}>
                {preview.system}
              </pre>
              <h3 className="small preview-part">{t("form.user")}</h3>
              <pre className="read-text" tabIndex={0} aria-label={t("form.userPrompt")}>
                {preview.user}
              </pre>
              {preview.truncated && <p className="muted small">{t("form.truncated")}</p>}
            </div>
          )}
        </section>
        {error && (
          <p className="error small" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={props.onClose}>
            {t("common:cancel")}
          </button>
          <button type="submit" className="btn primary" disabled={save.isPending}>
            {save.isPending ? t("form.saving") : t("common:save")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
