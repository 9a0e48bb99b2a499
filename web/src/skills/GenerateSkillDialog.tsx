// Asks a model for a skill draft from a description of the material (issue
// 16). The draft goes to the skill form; nothing is stored until it is saved.

import { useTranslation } from "react-i18next";
import { useId, useRef, useState } from "react";
import type { FormEvent } from "react";
import type { ModelInfo } from "../api/agent";
import { ApiError } from "../api/client";
import type { SkillDraft } from "../api/skills";
import { Dialog } from "../ui/Dialog";
import { messageOf } from "../ui/errors";
import { useGenerateSkill } from "./skillQueries";

interface Props {
  models: ModelInfo[];
  defaultModel?: string;
  /** a file the model may read the start of, to fit the skill to it */
  sampleURI?: string;
  sampleName?: string;
  onDraft: (draft: SkillDraft) => void;
  onClose: () => void;
}

/** failureText says why no draft came: nothing for a request the dialog closed. */
function failureText(err: Error | null): string | null {
  if (!err || (err instanceof DOMException && err.name === "AbortError")) return null;
  // A model error is classified (rate_limited, auth, …): say which.
  return err instanceof ApiError && err.code !== "error" ? `${messageOf(err)} (${err.code})` : messageOf(err);
}

export function GenerateSkillDialog(props: Props) {
  const { t } = useTranslation("skills");
  const [description, setDescription] = useState("");
  const [modelId, setModelId] = useState(() => props.models.find((m) => m.id === props.defaultModel)?.id ?? props.models[0]?.id ?? "");
  const [useSample, setUseSample] = useState(true);
  const [missing, setMissing] = useState(false);
  const generate = useGenerateSkill();
  const abort = useRef<AbortController | null>(null);
  const error = missing ? t("generate.describeFirst") : failureText(generate.error);
  const id = useId();

  function submit(e: FormEvent) {
    e.preventDefault();
    setMissing(!description.trim());
    if (!description.trim()) return;
    abort.current = new AbortController();
    generate.mutate(
      { description: description.trim(), model_id: modelId, sample_uri: useSample ? props.sampleURI : undefined, signal: abort.current.signal },
      { onSuccess: props.onDraft },
    );
  }

  const close = () => {
    abort.current?.abort();
    props.onClose();
  };

  return (
    <Dialog title={t("generate.title")} onClose={close} className="wide skill-dialog">
      <form className="dialog-form" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={`${id}-description`}>{t("generate.question")}</label>
          <textarea
            id={`${id}-description`}
            className="prompt-editor"
            rows={4}
            autoFocus
            placeholder={t("generate.placeholder")}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-model`}>{t("generate.model")}</label>
          <select id={`${id}-model`} className="select" value={modelId} onChange={(e) => setModelId(e.target.value)}>
            {props.models.length === 0 && <option value="">{t("generate.noModel")}</option>}
            {props.models.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </select>
        </div>
        {props.sampleURI && (
          <label className="check-field">
            <input type="checkbox" checked={useSample} onChange={(e) => setUseSample(e.target.checked)} />
            {t("generate.sample", { name: props.sampleName ?? props.sampleURI })}
          </label>
        )}
        <p className="muted small">{t("generate.note")}</p>
        {error && (
          <p className="error small" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={close}>
            {t("common:cancel")}
          </button>
          <button type="submit" className="btn primary" disabled={generate.isPending || !modelId}>
            {generate.isPending ? t("generate.busy") : t("generate.submit")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
