// One way into the skill form: a new skill, an edit, a duplicate (built-ins
// too) or a generated draft. Saving refreshes /options, whose
// compile_defaults.skills feed the compile form's picker.

import { useTranslation } from "react-i18next";
import { useState } from "react";
import type { ReactNode } from "react";
import type { ModelInfo } from "../api/agent";
import type { Skill, SkillDraft } from "../api/skills";
import { Dialog } from "../ui/Dialog";
import { messageOf } from "../ui/errors";
import { GenerateSkillDialog } from "./GenerateSkillDialog";
import { SkillDialog } from "./SkillDialog";
import { skillTitle } from "./builtinText";
import { duplicateInput, emptyInput } from "./model";
import { useSkill } from "./skillQueries";

export type SkillFlowStart = { kind: "new" } | { kind: "edit"; id: string } | { kind: "duplicate"; id: string } | { kind: "generate" };

/** SkillContext is what the skill dialogs need from the compile form. */
export interface SkillContext {
  models: ModelInfo[];
  defaultModel?: string;
  /** the first selected file: the preview's and the generator's sample */
  fileURI?: string;
  fileName?: string;
  /** names already taken, so a duplicate gets a free one */
  takenNames: string[];
}

/**
 * useSkillFlow opens the skill dialogs from a start (open) on top of what
 * renders dialog; a saved skill goes to onSaved and closes them.
 */
export function useSkillFlow(ctx: SkillContext, onSaved: (s: Skill) => void): { open: (start: SkillFlowStart) => void; dialog: ReactNode } {
  const [start, setStart] = useState<SkillFlowStart | null>(null);
  const close = () => setStart(null);
  const saved = (s: Skill) => {
    close();
    onSaved(s);
  };
  return { open: setStart, dialog: start && <SkillFlow start={start} ctx={ctx} onSaved={saved} onClose={close} /> };
}

export function SkillFlow(props: { start: SkillFlowStart; ctx: SkillContext; onSaved: (s: Skill) => void; onClose: () => void }) {
  const { t } = useTranslation("skills");
  const { start, ctx } = props;
  const [draft, setDraft] = useState<SkillDraft | null>(null);
  const existingID = start.kind === "edit" || start.kind === "duplicate" ? start.id : null;
  const existing = useSkill(existingID);
  const common = { previewURI: ctx.fileURI, previewName: ctx.fileName, onSaved: (s: Skill) => props.onSaved(s), onClose: props.onClose };

  if (start.kind === "generate" && !draft) {
    return (
      <GenerateSkillDialog
        models={ctx.models}
        defaultModel={ctx.defaultModel}
        sampleURI={ctx.fileURI}
        sampleName={ctx.fileName}
        onDraft={setDraft}
        onClose={props.onClose}
      />
    );
  }
  if (draft) {
    return (
      <SkillDialog
        title={t("flow.generatedTitle")}
        note={t("flow.generatedNote")}
        initial={{ ...emptyInput(), ...draft }}
        {...common}
      />
    );
  }
  if (start.kind === "new") return <SkillDialog title={t("flow.new")} initial={emptyInput()} {...common} />;
  if (!existing.data) {
    return (
      <Dialog title={t("flow.skill")} onClose={props.onClose}>
        {existing.isError ? <p className="error small">{messageOf(existing.error)}</p> : <p className="muted small">{t("flow.loading")}</p>}
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={props.onClose}>
            {t("common:cancel")}
          </button>
        </div>
      </Dialog>
    );
  }
  const s = existing.data;
  if (start.kind === "duplicate" || s.builtin) {
    return <SkillDialog title={t("flow.copyOf", { name: skillTitle(t, s) })} initial={duplicateInput(s, ctx.takenNames)} {...common} />;
  }
  return (
    <SkillDialog
      title={t("flow.edit", { name: s.name })}
      skillID={s.id}
      initial={{ name: s.name, description: s.description, prompt: s.prompt, output_language: s.output_language }}
      {...common}
    />
  );
}
