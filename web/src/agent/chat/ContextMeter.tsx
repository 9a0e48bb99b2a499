import { useTranslation } from "react-i18next";
import { useState } from "react";
import { Gauge } from "lucide-react";
import type { ContextEvent } from "../../sse/events";
import type { Turn } from "./conversation";
import { formatNumber } from "../../ui/format";

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
  const { t } = useTranslation("agent");
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
        title={t("context.title")}
      >
        <Gauge size={13} aria-hidden />
        <span className="context-bar" aria-hidden>
          <span className={`context-fill ${level}`} style={{ width: `${(ratio * 100).toFixed(1)}%` }} />
        </span>
        <span className="context-nums">
          {t("context.summary", { estimate: approxTokens(context.estimate), limit: compact(context.input_limit) })} <span className="muted">{t("context.est")}</span>
        </span>
        {done?.usage && <span className="muted context-usage">· {t("context.provider", { tokens: compact(done.usage.input_tokens) })}</span>}
        {context.compactions > 0 && <span className="muted">· {t("context.compacted", { count: context.compactions })}</span>}
      </button>
      {open && (
        <dl className="context-detail" aria-label={t("context.details")}>
          <dt>{t("context.estimate")}</dt>
          <dd>
            {t("context.approxTokens", { n: formatNumber(context.estimate) })} <span className="muted">{t("context.basis")}</span>
          </dd>
          <dt>{t("context.inputLimit")}</dt>
          <dd>
            {t("context.tokens", { n: formatNumber(context.input_limit) })} <span className="muted">{t("context.limitFormula")}</span>
          </dd>
          <dt>{t("context.window")}</dt>
          <dd>{t("context.tokens", { n: formatNumber(context.window) })}</dd>
          <dt>{t("context.reserves")}</dt>
          <dd>{t("context.reservesValue", { output: formatNumber(context.output_reserve), protocol: formatNumber(context.protocol_reserve) })}</dd>
          <dt>{t("context.breakdown")}</dt>
          <dd>
            {t("context.breakdownValue", {
              system: formatNumber(b.system),
              tools: formatNumber(b.tools),
              history: formatNumber(b.history),
              observations: formatNumber(b.observations),
            })}
          </dd>
          <dt>{t("context.compactions")}</dt>
          <dd>
            {formatNumber(context.compactions)}
            {context.last_compaction &&
              t("context.lastCompaction", {
                before: formatNumber(context.last_compaction.before),
                after: formatNumber(context.last_compaction.after),
                ratio: context.last_compaction.ratio.toFixed(2),
              })}
          </dd>
          <dt>{t("context.providerUsage")}</dt>
          <dd>
            {done?.usage ? (
              <>
                {t("context.usageValue", { input: formatNumber(done.usage.input_tokens), output: formatNumber(done.usage.output_tokens) })}
                {done.usage.cached_tokens ? t("context.cached", { n: formatNumber(done.usage.cached_tokens) }) : ""}
                {done.usage.reasoning_tokens ? t("context.reasoning", { n: formatNumber(done.usage.reasoning_tokens) }) : ""}
                <span className="muted"> {t("context.usageNote")}</span>
              </>
            ) : (
              <span className="muted">
                {turn.status === "streaming"
                  ? t("context.notYet")
                  : turn.status === "done"
                    ? t("context.notReported")
                    : turn.status === "stopped"
                      ? t("context.noneStopped")
                      : t("context.noneIncomplete")}
              </span>
            )}
          </dd>
        </dl>
      )}
    </div>
  );
}
