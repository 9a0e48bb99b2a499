import { useTranslation } from "react-i18next";
import { memo, useMemo, useState } from "react";
import type { ReactNode } from "react";
import { ChevronLeft, ChevronRight, CircleAlert, CircleCheck, CircleStop, LoaderCircle, Pencil } from "lucide-react";
import type { TFunction } from "i18next";
import type { Turn } from "./conversation";
import { formatNumber } from "../../ui/format";
import { errorText } from "../../ui/errors";
import { SourcesList } from "../../citations/SourcesList";
import { sourcesOf } from "../../citations/sources";
import { ChatMarkdown } from "./ChatMarkdown";
import { ReasoningBlock } from "./ReasoningBlock";
import { NotifyOffer } from "./NotifyOffer";
import { ToolCard } from "./ToolCard";
import { TurnActions } from "./TurnActions";
import type { OpenPreview } from "../types";
import { shownVersion } from "./versions";

/** statusLine is the line under an answer: its state, and why it failed in the reader's words (no API code). */
export function statusLine(tr: TFunction, t: Turn): { icon: ReactNode; text: string } {
  switch (t.status) {
    case "streaming":
      return { icon: <LoaderCircle size={12} className="spin" aria-hidden />, text: tr(t.reconnecting ? "reconnecting" : "status.answering") };
    case "done": {
      const d = t.done;
      const bits = [tr("status.complete")];
      if (d && d.tool_calls) bits.push(tr("status.toolCalls", { count: d.tool_calls }));
      if (d?.usage) bits.push(tr("status.usage", { input: formatNumber(d.usage.input_tokens), output: formatNumber(d.usage.output_tokens) }));
      return { icon: <CircleCheck size={12} aria-hidden />, text: bits.join(" · ") };
    }
    case "stopped":
      return { icon: <CircleStop size={12} aria-hidden />, text: tr("status.stopped") };
    case "incomplete":
    case "error":
      return {
        icon: <CircleAlert size={12} aria-hidden />,
        text: tr("status.failed", { message: t.error ? errorText(t.error) : tr("status.didNotFinish") }),
      };
  }
}

/** TurnView is one question and its answer: reasoning, tool cards and text in the order they came. */
export const TurnView = memo(function TurnView({
  turn: current,
  display,
  onOpenPreview,
  onRetry,
  onEdit,
}: {
  turn: Turn;
  display: (uri: string) => string;
  onOpenPreview: OpenPreview;
  /** given on the newest turn only, and only when nothing streams */
  onRetry?: (turn: Turn) => void;
  onEdit?: (turn: Turn) => void;
}) {
  const { t } = useTranslation("agent");
  // The pager shows an earlier answer in place; the current one is the default.
  const [picked, setPicked] = useState<number | null>(null);
  const version = shownVersion(current, picked);
  const turn = version.turn;
  const latest = version.index === version.count - 1;
  const live = turn.status === "streaming";
  const sources = useMemo(() => sourcesOf(turn), [turn]);
  const status = statusLine(t, turn);
  const empty = turn.parts.length === 0;
  return (
    <>
      <div className="msg user" data-id={turn.userId} data-role="user">
        <div className="bubble">
          <ChatMarkdown text={turn.question} />
        </div>
        {onEdit && (
          <button type="button" className="icon-btn msg-edit" title={t("edit")} aria-label={t("editLast")} onClick={() => onEdit(turn)}>
            <Pencil size={13} aria-hidden />
          </button>
        )}
      </div>
      <div
        className={`msg assistant status-${turn.status}`}
        data-id={turn.id}
        data-role="assistant"
        data-status={turn.status}
        aria-busy={live}
      >
        {version.count > 1 && (
          <div className="version-pager small muted" role="group" aria-label={t("versions.group")}>
            <button
              type="button"
              className="icon-btn"
              aria-label={t("versions.previous")}
              disabled={version.index === 0}
              onClick={() => setPicked(version.index - 1)}
            >
              <ChevronLeft size={13} aria-hidden />
            </button>
            <span role="status" aria-label={t("versions.of", { n: version.index + 1, count: version.count })}>
              {version.index + 1} / {version.count}
            </span>
            <button
              type="button"
              className="icon-btn"
              aria-label={t("versions.next")}
              disabled={latest}
              onClick={() => setPicked(version.index + 1 === version.count - 1 ? null : version.index + 1)}
            >
              <ChevronRight size={13} aria-hidden />
            </button>
          </div>
        )}
        {turn.start?.mode === "text_only" && <p className="muted small mode-note">{t("textOnlyNote")}</p>}
        {turn.parts.map((p, i) =>
          p.kind === "text" ? (
            <div className="answer" key={i}>
              <ChatMarkdown text={p.text} answer />
            </div>
          ) : p.kind === "reasoning" ? (
            <ReasoningBlock key={i} text={p.text} live={live && i === turn.parts.length - 1} />
          ) : turn.tools[p.id] ? (
            <ToolCard key={p.id} card={turn.tools[p.id]!} running={live} onOpenPreview={onOpenPreview} />
          ) : null,
        )}
        {empty && live && <p className="muted small">{t("waiting")}</p>}
        {!live && <SourcesList sources={sources} display={display} onOpenPreview={onOpenPreview} />}
        <p className={`turn-status ${turn.status}`} role={turn.status === "error" || turn.status === "incomplete" ? "alert" : undefined}>
          {status.icon} <span>{status.text}</span>
          {live && latest && <NotifyOffer />}
        </p>
        {/* Retry always asks again in place of the current answer, whichever version is shown. */}
        {!live && <TurnActions turn={turn} onRetry={onRetry && latest ? () => onRetry(current) : undefined} />}
      </div>
    </>
  );
});
