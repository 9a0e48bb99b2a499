// The compile form's options: the model and the skill up front; under
// "Advanced" the executor (an LLM model, or a CLI profile), effort, call
// budget, timeout and output folder. Without a model to pick it says what an
// administrator has to add.

import { useTranslation } from "react-i18next";
import type { ReactNode } from "react";
import type { SkillFlowStart } from "../../skills/SkillFlow";
import { NoModelsHelp } from "../NoModels";
import { SkillPicker } from "./SkillPicker";
import type { CompileChoices, Executor } from "./useCompileChoices";

const EFFORTS = ["low", "medium", "high"];

export function CompileOptions(props: {
  form: CompileChoices;
  /** a field before the model (keep mode's quiet period) */
  lead?: ReactNode;
  onSkillFlow: (start: SkillFlowStart) => void;
  onSkillList: () => void;
}) {
  const { t } = useTranslation("agent");
  const { form } = props;
  const { choices: c, choose, models, profiles, prof, defaults } = form;
  const noModel = Boolean(form.options) && c.executor === "llm" && models.length === 0;
  return (
    <>
      {noModel && (
        <div className="notice small compile-no-model" role="note" data-testid="compile-no-model">
          <p>
            <strong>{t("compile.noModelTitle")}</strong> {profiles.length > 0 && t("compile.noModelCli")}
          </p>
          <NoModelsHelp />
          <p>{t("compile.noModelRestart")}</p>
        </div>
      )}
      <div className="form-grid">
        {props.lead}
        {c.executor === "llm" ? (
          <label className="field">
            {t("compile.model")}
            <select className="select" aria-label={t("compile.modelAria")} value={c.modelId} onChange={(e) => choose({ modelId: e.target.value })}>
              {models.length === 0 && <option value="">{form.options ? t("compile.noModel") : t("loadingModels")}</option>}
              {models.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.name}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <label className="field">
            {t("compile.cliModel")}
            <select className="select" aria-label={t("compile.cliModel")} value={c.cliModel} onChange={(e) => choose({ cliModel: e.target.value })}>
              {(prof?.models ?? []).map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          </label>
        )}
        <SkillPicker skills={form.skills} value={c.skill} onChange={(skill) => choose({ skill })} onFlow={props.onSkillFlow} onList={props.onSkillList} />
      </div>
      <details className="compile-advanced">
        <summary>{t("compile.advanced")}</summary>
        <div className="form-grid">
          <label className="field">
            {t("compile.executor")}
            <select className="select" aria-label={t("compile.executor")} value={c.executor} onChange={(e) => choose({ executor: e.target.value as Executor })}>
              <option value="llm">{t("compile.llm")}</option>
              <option value="cli" disabled={profiles.length === 0}>
                {profiles.length === 0 ? t("compile.cliNone") : t("compile.cliProfile")}
              </option>
            </select>
          </label>
          {c.executor === "cli" && (
            <label className="field">
              {t("compile.cliProfile")}
              <select
                className="select"
                aria-label={t("compile.cliProfile")}
                value={c.profile}
                onChange={(e) => choose({ profile: e.target.value, cliModel: profiles.find((p) => p.name === e.target.value)?.models[0] ?? "" })}
              >
                {profiles.map((p) => (
                  <option key={p.name} value={p.name}>
                    {p.name}
                  </option>
                ))}
              </select>
            </label>
          )}
          <label className="field">
            {t("compile.effort")}
            <select className="select" aria-label={t("compile.effort")} value={c.effort} onChange={(e) => choose({ effort: e.target.value })}>
              {(c.executor === "cli" && prof?.efforts.length ? prof.efforts : EFFORTS).map((x) => (
                <option key={x} value={x}>
                  {t(`compile.efforts.${x}`, { defaultValue: x })}
                </option>
              ))}
            </select>
          </label>
          <NumberField label={t("compile.budget")} max={defaults.max_call_budget ?? 64} value={c.budget} onChange={(budget) => choose({ budget })} />
          <NumberField label={t("compile.timeout")} max={defaults.max_timeout_s ?? 3600} value={c.timeout} onChange={(timeout) => choose({ timeout })} />
          <label className="field wide-field">
            {t("compile.outputParent")}
            <input
              className="text-input"
              placeholder={t("compile.outputPlaceholder")}
              value={c.outputParent}
              onChange={(e) => choose({ outputParent: e.target.value })}
            />
          </label>
        </div>
      </details>
    </>
  );
}

/** NumberField is a labelled number input from min (1 unless told) to max. */
export function NumberField(props: { label: string; min?: number; max: number; value: number; onChange: (n: number) => void }) {
  return (
    <label className="field">
      {props.label}
      <input
        className="text-input"
        type="number"
        min={props.min ?? 1}
        max={props.max}
        value={props.value}
        onChange={(e) => props.onChange(Number(e.target.value))}
      />
    </label>
  );
}
