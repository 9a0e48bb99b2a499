// The compile form's skill: pick one, or start one of the skill dialogs
// (issue 16), which open on top of the form and leave its choices alone.

import { useTranslation } from "react-i18next";
import type { CompileSkill } from "../../api/agent";
import type { SkillFlowStart } from "../../skills/SkillFlow";
import { skillDescription, skillTitle } from "../../skills/builtinText";

export function SkillPicker(props: {
  skills: readonly CompileSkill[];
  value: string;
  onChange: (id: string) => void;
  onFlow: (start: SkillFlowStart) => void;
  onList: () => void;
}) {
  const { t } = useTranslation("agent");
  const { skills, onFlow } = props;
  const selected = skills.find((s) => s.id === props.value);
  return (
    <div className="field wide-field">
      <label htmlFor="compile-skill">{t("compile.skill")}</label>
      <div className="skill-picker">
        <select id="compile-skill" className="select" value={props.value} onChange={(e) => props.onChange(e.target.value)}>
          {skills.map((s) => (
            <option key={s.id} value={s.id} title={skillDescription(t, s)}>
              {skillTitle(t, s)}
              {s.builtin ? t("compile.builtinSuffix") : ""}
            </option>
          ))}
          {skills.length === 0 && <option value="">{t("compile.defaultSkill")}</option>}
        </select>
        <button type="button" className="btn small" onClick={() => onFlow({ kind: "new" })}>
          {t("compile.new")}
        </button>
        {selected?.builtin ? (
          <button type="button" className="btn small" title={t("compile.builtinCopy")} onClick={() => onFlow({ kind: "duplicate", id: selected.id })}>
            {t("compile.duplicate")}
          </button>
        ) : null}
        <button
          type="button"
          className="btn small"
          disabled={!selected || selected.builtin}
          title={selected?.builtin ? t("compile.builtinReadOnly") : undefined}
          onClick={() => selected && onFlow({ kind: "edit", id: selected.id })}
        >
          {t("compile.edit")}
        </button>
        <button type="button" className="btn small" onClick={() => onFlow({ kind: "generate" })}>
          {t("compile.generate")}
        </button>
        <button type="button" className="btn small" onClick={props.onList}>
          {t("compile.skills")}
        </button>
      </div>
      {selected?.description && <span className="muted small">{skillDescription(t, selected)}</span>}
    </div>
  );
}
