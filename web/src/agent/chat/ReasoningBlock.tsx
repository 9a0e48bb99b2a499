import { useTranslation } from "react-i18next";
import { Brain } from "lucide-react";

/** ReasoningBlock is the model's reasoning, collapsed unless opened. */
export function ReasoningBlock({ text, live }: { text: string; live: boolean }) {
  const { t } = useTranslation("agent");
  return (
    <details className="reasoning">
      <summary>
        <Brain size={13} aria-hidden /> {live ? t("reasoning.live") : t("reasoning.done")}
        <span className="muted small"> · {t("reasoning.chars", { count: text.length })}</span>
      </summary>
      <div className="reasoning-text">{text}</div>
    </details>
  );
}
