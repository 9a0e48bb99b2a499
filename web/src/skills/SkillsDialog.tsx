// The list of skills (issue 16): built-ins first, then the user's own; any
// can be duplicated, the user's own edited and deleted.

import { useTranslation } from "react-i18next";
import { useState } from "react";
import type { Skill } from "../api/skills";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { Dialog } from "../ui/Dialog";
import { DialogFooter } from "../ui/DialogFooter";
import { messageOf } from "../ui/errors";
import { skillDescription, skillTitle } from "./builtinText";
import { useSkillFlow } from "./SkillFlow";
import type { SkillContext } from "./SkillFlow";
import { useDeleteSkill, useSkills } from "./skillQueries";

interface Props {
  ctx: SkillContext;
  onSaved: (s: Skill) => void;
  onDeleted: (id: string) => void;
  onClose: () => void;
}

export function SkillsDialog(props: Props) {
  const { t } = useTranslation("skills");
  const skills = useSkills();
  const remove = useDeleteSkill();
  const [deleting, setDeleting] = useState<Skill | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const list = skills.data ?? [];
  const ctx = { ...props.ctx, takenNames: list.map((s) => s.name) };
  const flow = useSkillFlow(ctx, (s) => {
    setNotice(t("list.saved", { name: s.name }));
    props.onSaved(s);
  });

  return (
    <Dialog title={t("list.title")} onClose={props.onClose} className="wide skills-dialog">
      {skills.isPending && <p className="muted small">{t("list.loading")}</p>}
      <ul className="skill-list" aria-label={t("list.title")}>
        {list.map((s) => (
          <li key={s.id} className="skill-item" data-skill-id={s.id}>
            <div className="skill-head">
              <strong className="ellipsis">{skillTitle(t, s)}</strong>
              {s.builtin && <span className="badge">{t("list.builtin")}</span>}
              <span className="skill-actions">
                {!s.builtin && (
                  <button type="button" className="btn small" aria-label={t("list.editOne", { name: skillTitle(t, s) })} onClick={() => flow.open({ kind: "edit", id: s.id })}>
                    {t("list.edit")}
                  </button>
                )}
                <button type="button" className="btn small" aria-label={t("list.duplicateOne", { name: skillTitle(t, s) })} onClick={() => flow.open({ kind: "duplicate", id: s.id })}>
                  {t("list.duplicate")}
                </button>
                {!s.builtin && (
                  <button type="button" className="btn small danger-text" aria-label={t("list.deleteOne", { name: skillTitle(t, s) })} onClick={() => setDeleting(s)}>
                    {t("list.delete")}
                  </button>
                )}
              </span>
            </div>
            {s.description && <p className="muted small skill-description">{skillDescription(t, s)}</p>}
          </li>
        ))}
      </ul>
      <DialogFooter
        error={skills.isError ? messageOf(skills.error) : null}
        notice={notice}
        closeLabel={t("common:close")}
        onClose={props.onClose}
      />
      {flow.dialog}
      {deleting && (
        <ConfirmDialog
          title={t("list.deleteTitle", { name: deleting.name })}
          confirmLabel={t("list.delete")}
          onConfirm={async () => {
            await remove.mutateAsync(deleting.id);
            setNotice(t("list.deleted", { name: deleting.name }));
            props.onDeleted(deleting.id);
          }}
          onClose={() => setDeleting(null)}
        >
          {t("list.deleteNote")}
        </ConfirmDialog>
      )}
    </Dialog>
  );
}
