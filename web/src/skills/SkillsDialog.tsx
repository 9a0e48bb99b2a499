// The list of skills (issue 16): built-ins first, then the user's own; any
// can be duplicated, the user's own edited and deleted.

import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { deleteSkill, listSkills } from "../api/skills";
import type { Skill } from "../api/skills";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { Dialog } from "../ui/Dialog";
import { DialogFooter } from "../ui/DialogFooter";
import { messageOf } from "../ui/errors";
import { SkillFlow, refreshSkills } from "./SkillFlow";
import type { SkillContext, SkillFlowStart } from "./SkillFlow";

interface Props {
  ctx: SkillContext;
  onSaved: (s: Skill) => void;
  onDeleted: (id: string) => void;
  onClose: () => void;
}

export function SkillsDialog(props: Props) {
  const qc = useQueryClient();
  const skills = useQuery({ queryKey: ["skills"], queryFn: ({ signal }) => listSkills(signal) });
  const [flow, setFlow] = useState<SkillFlowStart | null>(null);
  const [deleting, setDeleting] = useState<Skill | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const list = skills.data ?? [];
  const ctx = { ...props.ctx, takenNames: list.map((s) => s.name) };

  return (
    <Dialog title="Skills" onClose={props.onClose} className="wide skills-dialog">
      {skills.isPending && <p className="muted small">Loading skills…</p>}
      <ul className="skill-list" aria-label="Skills">
        {list.map((s) => (
          <li key={s.id} className="skill-item" data-skill-id={s.id}>
            <div className="skill-head">
              <strong className="ellipsis">{s.name}</strong>
              {s.builtin && <span className="badge">built-in</span>}
              <span className="skill-actions">
                {!s.builtin && (
                  <button type="button" className="btn small" aria-label={`Edit ${s.name}`} onClick={() => setFlow({ kind: "edit", id: s.id })}>
                    Edit
                  </button>
                )}
                <button type="button" className="btn small" aria-label={`Duplicate ${s.name}`} onClick={() => setFlow({ kind: "duplicate", id: s.id })}>
                  Duplicate
                </button>
                {!s.builtin && (
                  <button type="button" className="btn small danger-text" aria-label={`Delete ${s.name}`} onClick={() => setDeleting(s)}>
                    Delete
                  </button>
                )}
              </span>
            </div>
            {s.description && <p className="muted small skill-description">{s.description}</p>}
          </li>
        ))}
      </ul>
      <DialogFooter
        error={skills.isError ? messageOf(skills.error) : null}
        notice={notice}
        closeLabel="Close"
        onClose={props.onClose}
      />
      {flow && (
        <SkillFlow
          start={flow}
          ctx={ctx}
          onSaved={(s) => {
            setFlow(null);
            setNotice(`Saved ${s.name}.`);
            props.onSaved(s);
          }}
          onClose={() => setFlow(null)}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={`Delete ${deleting.name}?`}
          confirmLabel="Delete"
          onConfirm={async () => {
            await deleteSkill(deleting.id);
            setNotice(`Deleted ${deleting.name}.`);
            props.onDeleted(deleting.id);
            await refreshSkills(qc);
          }}
          onClose={() => setDeleting(null)}
        >
          Jobs already queued keep the skill's text; new compiles can no longer pick it.
        </ConfirmDialog>
      )}
    </Dialog>
  );
}
