// What the chat shows while the server has no model: how an administrator
// adds one, and that the folder's commands work without. The compile form
// says the same where it cannot pick a model.

import { useTranslation } from "react-i18next";
import { Bot } from "lucide-react";

/** NoModelsHelp is how an administrator adds a model. */
export function NoModelsHelp() {
  const { t } = useTranslation("agent");
  return (
    <>
      <p>{t("noModels.intro")}</p>
      <ul>
        <li>
          {t("noModels.keys")} (<code>OPENAI_API_KEY</code>, <code>DEEPSEEK_API_KEY</code>,{" "}
          <code>DASHSCOPE_API_KEY</code>, <code>GEMINI_API_KEY</code>){t("noModels.ollama")}
        </li>
        <li>
          {t("noModels.config")} <code>models:</code> (<code>--config</code> / <code>KB_CONFIG</code>)
        </li>
      </ul>
    </>
  );
}

export function NoModels({ onFolder }: { onFolder: () => void }) {
  const { t } = useTranslation("agent");
  return (
    <div className="empty-state no-models" data-testid="no-models">
      <Bot size={26} aria-hidden />
      <p>{t("noModels.title")}</p>
      <div className="muted small no-models-help">
        <NoModelsHelp />
        <p>{t("noModels.restart")}</p>
      </div>
      <button type="button" className="btn small" onClick={onFolder}>
        {t("noModels.openFolder")}
      </button>
    </div>
  );
}
