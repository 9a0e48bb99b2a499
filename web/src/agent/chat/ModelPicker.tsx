import { useTranslation } from "react-i18next";
import type { ModelInfo } from "../../api/agent";
import i18n from "../../i18n";

function k(n: number): string {
  return n >= 1000 ? `${Math.round(n / 1024)}k` : String(n);
}

/** capabilityText lists what a model can do, for the picker. */
export function capabilityText(m: ModelInfo): string {
  const t = i18n.t;
  const bits = [
    m.native_tools ? t("agent:model.tools") : t("agent:model.textOnly"),
    t("agent:model.window", { n: k(m.context_window) }),
    t("agent:model.maxOutput", { n: k(m.max_output) }),
  ];
  if (m.reasoning) bits.push(t("agent:model.reasoning"));
  return bits.join(" · ");
}

/** ModelPicker chooses the model for the next question; text-only models are marked. */
export function ModelPicker(props: { models: ModelInfo[]; value: string; onChange: (id: string) => void; disabled?: boolean }) {
  const { t } = useTranslation("agent");
  const current = props.models.find((m) => m.id === props.value);
  return (
    <div className="model-picker">
      <label className="sr-only" htmlFor="agent-model">
        {t("model.label")}
      </label>
      <select
        id="agent-model"
        className="select"
        value={props.value}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.value)}
        title={current ? `${current.name} (${current.profile}) — ${capabilityText(current)}` : undefined}
      >
        {props.models.map((m) => (
          <option key={m.id} value={m.id}>
            {m.name}
            {m.native_tools ? "" : t("model.textOnlySuffix")}
          </option>
        ))}
      </select>
      {current && (
        <span className={`model-caps ${current.native_tools ? "" : "text-only"}`} data-testid="model-caps">
          {capabilityText(current)}
        </span>
      )}
    </div>
  );
}
