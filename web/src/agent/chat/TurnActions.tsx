import { useTranslation } from "react-i18next";
import { useEffect, useState } from "react";
import { Check, Copy, RotateCcw } from "lucide-react";
import type { Turn } from "./conversation";
import { answerText } from "./conversation";

interface Props {
  turn: Turn;
  /** Retry is offered on the newest turn only: an older question is asked again by typing it */
  onRetry?: () => void;
}

/**
 * TurnActions sits under a finished answer: Copy puts its Markdown on the
 * clipboard; Retry asks the question again, and is the main action of a
 * stopped or failed turn.
 */
export function TurnActions({ turn, onRetry }: Props) {
  const { t } = useTranslation("agent");
  const [copied, setCopied] = useState<"ok" | "failed" | null>(null);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(null), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  const text = answerText(turn);
  const broken = turn.status !== "done";
  const copy = () => {
    // The clipboard needs a secure context; over plain http it is absent.
    if (!navigator.clipboard) return setCopied("failed");
    navigator.clipboard.writeText(text).then(
      () => setCopied("ok"),
      () => setCopied("failed"),
    );
  };
  return (
    <div className="turn-actions" role="group" aria-label={t("actions.group")}>
      {onRetry && broken && (
        <button type="button" className="btn small primary turn-retry" onClick={onRetry}>
          <RotateCcw size={12} aria-hidden /> {t("common:retry")}
        </button>
      )}
      {text && (
        <button type="button" className="icon-btn" title={t("actions.copy")} aria-label={t("actions.copyAria")} onClick={copy}>
          {copied === "ok" ? <Check size={14} aria-hidden /> : <Copy size={14} aria-hidden />}
        </button>
      )}
      {onRetry && !broken && (
        <button type="button" className="icon-btn turn-retry" title={t("common:retry")} aria-label={t("common:retry")} onClick={onRetry}>
          <RotateCcw size={14} aria-hidden />
        </button>
      )}
      <span className="muted small" role="status">
        {copied === "ok" ? t("actions.copied") : copied === "failed" ? t("actions.noClipboard") : ""}
      </span>
    </div>
  );
}
