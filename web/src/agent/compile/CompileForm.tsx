// The frame both compile forms share: what they start from on top, the
// options, the last error and the buttons; the skill dialogs open above it.

import { useState } from "react";
import type { FormEvent, ReactNode } from "react";
import type { ResourceNode } from "../../api/types";
import { useSkillFlow } from "../../skills/SkillFlow";
import type { SkillContext } from "../../skills/SkillFlow";
import { SkillsDialog } from "../../skills/SkillsDialog";
import { Dialog } from "../../ui/Dialog";
import { CompileOptions } from "./CompileOptions";
import type { CompileChoices } from "./useCompileChoices";

export function CompileForm(props: {
  title: string;
  form: CompileChoices;
  /** the file the skill dialogs preview and sample */
  sample?: ResourceNode;
  /** what the compile starts from: the files to pick, or the folder's setting */
  top: ReactNode;
  lead?: ReactNode;
  error: string | null;
  actions: ReactNode;
  onSubmit: () => void;
  onClose: () => void;
}) {
  const { form } = props;
  const [list, setList] = useState(false);
  const ctx: SkillContext = {
    models: form.models,
    defaultModel: form.choices.modelId,
    fileURI: props.sample?.uri,
    fileName: props.sample?.name,
    takenNames: form.skills.map((s) => s.name),
  };
  const flow = useSkillFlow(ctx, form.skillSaved);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onSubmit();
  };
  return (
    <Dialog title={props.title} onClose={props.onClose} className="wide compile-dialog">
      <form className="dialog-form compile-form" onSubmit={submit}>
        {props.top}
        <CompileOptions form={form} lead={props.lead} onSkillFlow={flow.open} onSkillList={() => setList(true)} />
        {props.error && (
          <p className="error small" role="alert">
            {props.error}
          </p>
        )}
        <div className="dialog-actions">{props.actions}</div>
      </form>
      {flow.dialog}
      {list && <SkillsDialog ctx={ctx} onSaved={form.skillSaved} onDeleted={form.skillDeleted} onClose={() => setList(false)} />}
    </Dialog>
  );
}
