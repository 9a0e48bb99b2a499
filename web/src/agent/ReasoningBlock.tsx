import { Brain } from "lucide-react";

/** ReasoningBlock is the model's reasoning, collapsed unless opened. */
export function ReasoningBlock({ text, live }: { text: string; live: boolean }) {
  return (
    <details className="reasoning">
      <summary>
        <Brain size={13} aria-hidden /> {live ? "Thinking…" : "Reasoning"}
        <span className="muted small"> · {text.length} chars</span>
      </summary>
      <div className="reasoning-text">{text}</div>
    </details>
  );
}
