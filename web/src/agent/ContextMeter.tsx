import { useState } from "react";
import { Gauge } from "lucide-react";
import type { ContextEvent } from "../sse/events";
import type { Turn } from "./conversation";

function compact(n: number): string {
  if (n < 1000) return String(n);
  if (n < 100_000) return `${(n / 1000).toFixed(1)}k`;
  return `${Math.round(n / 1000)}k`;
}

/** approxTokens is an estimated count: "≈" marks every number that is not the provider's own. */
function approxTokens(n: number): string {
  return `≈${compact(n)}`;
}

/**
 * ContextMeter shows the last context estimate against the input limit, in
 * tokens throughout (the window, the reserves and the limit are token counts,
 * so the estimate is shown in the same unit). The estimate counts one token
 * per UTF-8 byte of what was sent, an upper bound, so it carries "≈" and its
 * basis is spelled out in the detail. The provider's own usage stands beside
 * it only when it belongs to the same turn as the estimate (turn: the turn
 * the context event came from) and that turn completed.
 */
export function ContextMeter({ context, turn }: { context: ContextEvent; turn: Turn }) {
  const done = turn.status === "done" ? turn.done : undefined;
  const [open, setOpen] = useState(false);
  const ratio = context.input_limit > 0 ? Math.min(1, context.estimate / context.input_limit) : 0;
  const level = ratio > 0.9 ? "high" : ratio > 0.7 ? "mid" : "low";
  const b = context.breakdown;
  return (
    <div className="context-meter">
      <button
        type="button"
        className="context-summary"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        title="Context use in tokens: an upper-bound estimate (UTF-8 bytes of the input)"
      >
        <Gauge size={13} aria-hidden />
        <span className="context-bar" aria-hidden>
          <span className={`context-fill ${level}`} style={{ width: `${(ratio * 100).toFixed(1)}%` }} />
        </span>
        <span className="context-nums">
          {approxTokens(context.estimate)} / {compact(context.input_limit)} tokens <span className="muted">est.</span>
        </span>
        {done?.usage && <span className="muted context-usage">· provider {compact(done.usage.input_tokens)} tokens</span>}
        {context.compactions > 0 && <span className="muted">· {context.compactions}× compacted</span>}
      </button>
      {open && (
        <dl className="context-detail" aria-label="Context details">
          <dt>Estimate</dt>
          <dd>
            ≈{context.estimate.toLocaleString()} tokens{" "}
            <span className="muted">(basis: UTF-8 bytes of the input, one token per byte — an upper bound, not a count)</span>
          </dd>
          <dt>Input limit</dt>
          <dd>
            {context.input_limit.toLocaleString()} tokens <span className="muted">= window − output reserve − protocol reserve</span>
          </dd>
          <dt>Window</dt>
          <dd>{context.window.toLocaleString()} tokens</dd>
          <dt>Reserves</dt>
          <dd>
            output {context.output_reserve.toLocaleString()} · protocol {context.protocol_reserve.toLocaleString()} tokens
          </dd>
          <dt>Breakdown</dt>
          <dd>
            system ≈{b.system.toLocaleString()} · tools ≈{b.tools.toLocaleString()} · history ≈{b.history.toLocaleString()} ·
            observations ≈{b.observations.toLocaleString()} tokens
          </dd>
          <dt>Compactions</dt>
          <dd>
            {context.compactions}
            {context.last_compaction &&
              ` · last ≈${context.last_compaction.before.toLocaleString()} → ≈${context.last_compaction.after.toLocaleString()} tokens (ratio ${context.last_compaction.ratio.toFixed(2)})`}
          </dd>
          <dt>Provider usage</dt>
          <dd>
            {done?.usage ? (
              <>
                {done.usage.input_tokens.toLocaleString()} input · {done.usage.output_tokens.toLocaleString()} output tokens
                {done.usage.cached_tokens ? ` · ${done.usage.cached_tokens.toLocaleString()} cached` : ""}
                {done.usage.reasoning_tokens ? ` · ${done.usage.reasoning_tokens.toLocaleString()} reasoning` : ""}
                <span className="muted"> (counted by the provider for this turn, summed over its model calls)</span>
              </>
            ) : (
              <span className="muted">
                {turn.status === "streaming"
                  ? "not reported yet (the turn is still running)"
                  : turn.status === "done"
                    ? "not reported by the provider"
                    : `none (the turn ${turn.status === "stopped" ? "was stopped" : "did not complete"})`}
              </span>
            )}
          </dd>
        </dl>
      )}
    </div>
  );
}
