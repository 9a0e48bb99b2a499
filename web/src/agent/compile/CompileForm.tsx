// The frame both compile forms share: what they start from on top, the
// options, the last error and the buttons; the skill dialogs open above it.
// Focus starts on the first control once what it starts from has loaded.

import { useEffect, useRef, useState } from "react";
import type { FormEvent, ReactNode, RefObject } from "react";
import type { ResourceNode } from "../../api/types";
import { useSkillFlow } from "../../skills/SkillFlow";
import type { SkillContext } from "../../skills/SkillFlow";
import { SkillsDialog } from "../../skills/SkillsDialog";
import { Dialog } from "../../ui/Dialog";
import { tabbables } from "../../ui/focusTrap";
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
  /** what the form starts from has loaded (its first control is in place) */
  ready?: boolean;
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
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirst(formRef, props.ready ?? true);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onSubmit();
  };
  return (
    <Dialog title={props.title} onClose={props.onClose} className="wide compile-dialog">
      <form ref={formRef} className="dialog-form compile-form" onSubmit={submit}>
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

/**
 * useFocusFirst puts focus on the form's first control once ready: the
 * dialog opened on whatever came first, and the file list may have loaded
 * above it since. Focus the user has moved is left alone.
 */
function useFocusFirst(ref: RefObject<HTMLFormElement | null>, ready: boolean) {
  const atOpen = useRef<Element | null | undefined>(undefined);
  const done = useRef(false);
  useEffect(() => {
    // The dialog (a child) has opened by now: this is where showModal put focus.
    if (atOpen.current === undefined) atOpen.current = document.activeElement;
    if (!ready || done.current) return;
    done.current = true;
    const form = ref.current;
    if (!form) return;
    const now = document.activeElement;
    const moved = now !== atOpen.current && now !== form.closest("dialog") && now !== document.body;
    if (moved) return;
    tabbables(form)[0]?.focus();
  }, [ready, ref]);
}
