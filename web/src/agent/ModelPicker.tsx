import type { ModelInfo } from "../api/agent";

function k(n: number): string {
  return n >= 1000 ? `${Math.round(n / 1024)}k` : String(n);
}

/** capabilityText lists what a model can do, for the picker. */
export function capabilityText(m: ModelInfo): string {
  const bits = [m.native_tools ? "tools" : "text only", `${k(m.context_window)} window`, `${k(m.max_output)} max output`];
  if (m.reasoning) bits.push("reasoning");
  return bits.join(" · ");
}

/** ModelPicker chooses the model for the next question; text-only models are marked. */
export function ModelPicker(props: { models: ModelInfo[]; value: string; onChange: (id: string) => void; disabled?: boolean }) {
  const current = props.models.find((m) => m.id === props.value);
  return (
    <div className="model-picker">
      <label className="sr-only" htmlFor="agent-model">
        Model
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
            {m.native_tools ? "" : " — text only"}
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
