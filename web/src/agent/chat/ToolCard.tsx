import { useTranslation } from "react-i18next";
import { memo } from "react";
import { CircleAlert, CircleCheck, ExternalLink, LoaderCircle, Wrench } from "lucide-react";
import { formatBytes } from "../../ui/format";
import { nameOf } from "../../api/uri";
import { addressesAsMe, useOwnRoot, usePlaceName } from "../../ui/placeName";
import { toolSummary } from "./toolSummary";
import type { ToolCard as ToolCardData } from "./conversation";
import type { OpenPreview } from "../types";

interface Props {
  card: ToolCardData;
  /** running is false once the turn ended: a call without a result then never ran to the end. */
  running: boolean;
  onOpenPreview: OpenPreview;
}

function prettyJSON(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function argString(args: string, name: string): string | null {
  try {
    const v: unknown = JSON.parse(args);
    if (v && typeof v === "object" && name in v && typeof (v as Record<string, unknown>)[name] === "string") {
      return (v as Record<string, string>)[name]!;
    }
  } catch {
    // arguments the model sent may be invalid JSON; the card shows them raw.
  }
  return null;
}

function errorText(e: unknown): string | null {
  if (!e) return null;
  if (typeof e === "string") return e;
  if (typeof e === "object") {
    const { code, message } = e as { code?: unknown; message?: unknown };
    return [code, message].filter((x) => typeof x === "string" && x).join(": ") || null;
  }
  return String(e);
}

interface Hit {
  uri: string;
  offset: number;
  line?: number;
  snippet: string;
}

/** searchMode is the mode a search answered in: ranked, hybrid, meaning, index or scan. */
function searchMode(result: unknown): string | null {
  const mode = result && typeof result === "object" ? (result as { mode?: unknown }).mode : null;
  return typeof mode === "string" && mode ? mode : null;
}

function searchHits(result: unknown): Hit[] {
  if (!result || typeof result !== "object") return [];
  const hits = (result as { hits?: unknown }).hits;
  if (!Array.isArray(hits)) return [];
  return hits.filter(
    (h): h is Hit => !!h && typeof h === "object" && typeof h.uri === "string" && typeof h.offset === "number",
  );
}

/** ToolCard shows one tool call: name, arguments, result summary or error, and where it landed. */
export const ToolCard = memo(function ToolCard({ card, running, onOpenPreview }: Props) {
  const { t } = useTranslation("agent");
  const place = usePlaceName();
  const root = useOwnRoot();
  const { call, result } = card;
  const pending = !result;
  const failed = result ? !result.ok : !running;
  const target = argString(call.arguments, "uri");
  // A hit opens with find started on the query, its match marked.
  const query = call.name === "search" ? (argString(call.arguments, "query") ?? undefined) : undefined;
  const err = result ? errorText(result.error) : null;
  const landing = result?.uri && (call.name === "read" || call.name === "search") && result.ok ? result : null;
  const landingOffset = landing && typeof landing.offset === "number" ? landing.offset : 0;
  const hits = call.name === "search" && result?.ok ? searchHits(result.result) : [];
  const mode = call.name === "search" && result?.ok ? searchMode(result.result) : null;
  const status = pending ? (running ? "running" : "unfinished") : result.ok ? "ok" : "error";
  const summary = result ? ((result.ok && toolSummary(t, call.name, result.result)) || result.summary) : "";
  return (
    <details className={`tool-card ${failed ? "failed" : ""}`} data-tool={call.name} data-status={status}>
      <summary>
        <span className="tool-icon" aria-hidden>
          {pending && running ? (
            <LoaderCircle size={14} className="spin" />
          ) : failed ? (
            <CircleAlert size={14} />
          ) : (
            <CircleCheck size={14} />
          )}
        </span>
        <Wrench size={12} aria-hidden className="muted" />
        <span className="tool-name">{call.name}</span>
        {target && <code className="tool-target ellipsis">{place(target)}</code>}
        {mode && (
          <span className="tool-mode" data-testid="tool-mode" title={t("tool.modeHint")}>
            {mode}
          </span>
        )}
        <span className="tool-summary ellipsis">
          {pending ? (running ? t("tool.running") : t("tool.unfinished")) : result.ok ? summary : err || summary}
        </span>
      </summary>
      <div className="tool-body">
        <div className="tool-section">
          <div className="tool-label">{t("tool.arguments")}</div>
          <pre className="tool-pre">{addressesAsMe(prettyJSON(call.arguments), root) || t("tool.none")}</pre>
        </div>
        {result && (
          <div className="tool-section">
            <div className="tool-label">
              {result.ok ? t("tool.result") : t("tool.resultError")} · {formatBytes(result.bytes)}
            </div>
            <p className="tool-result-summary">{summary}</p>
            {err && <p className="error small">{err}</p>}
          </div>
        )}
        {landing && landing.uri && (
          <button type="button" className="link-btn tool-open" onClick={() => onOpenPreview(landing.uri as string, landingOffset)}>
            <ExternalLink size={12} aria-hidden />{" "}
            {t(call.name === "search" ? "tool.openSearch" : "tool.openPage")}
          </button>
        )}
        {hits.length > 0 && (
          <ul className="tool-hits">
            {hits.slice(0, 20).map((h, i) => (
              <li key={`${h.uri}:${h.offset}:${i}`}>
                <button type="button" className="link-btn" onClick={() => onOpenPreview(h.uri, h.offset, query)}>
                  {typeof h.line === "number" ? t("tool.hitLine", { name: nameOf(h.uri), line: h.line }) : nameOf(h.uri)}
                </button>{" "}
                <span className="muted small tool-snippet">{h.snippet}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </details>
  );
});
