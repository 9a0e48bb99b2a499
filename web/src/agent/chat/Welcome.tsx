import { useTranslation } from "react-i18next";
import { Bot, WandSparkles } from "lucide-react";
import i18n from "../../i18n";

/**
 * exampleQuestions are starting points for a folder. The home folder has
 * sentences of its own: Chinese puts no spaces around 我的文件 as it does
 * around a folder's Latin name.
 */
export function exampleQuestions(scopeURI: string, label: string): string[] {
  const home = { context: "home" };
  const where = label ? { where: label } : home;
  return [
    i18n.t("agent:welcome.q1", label ? { scope: scopeURI } : home),
    i18n.t("agent:welcome.q2", where),
    i18n.t("agent:welcome.q3", where),
    i18n.t("agent:welcome.q4", where),
  ];
}

/** Welcome greets a new conversation with example questions for the current folder. */
export function Welcome(props: { scopeURI: string; label: string; textOnly: boolean; onPick: (q: string) => void }) {
  const { t } = useTranslation("agent");
  return (
    <div className="welcome">
      <Bot size={26} aria-hidden className="welcome-icon" />
      <p className="welcome-title">
        {props.label ? (
          <>
            {t("welcome.ask")} <code className="scope">{props.label}</code>
          </>
        ) : (
          t("welcome.askYourFiles")
        )}
      </p>
      <p className="muted small">
        {t("welcome.how")} <kbd>/</kbd> {t("welcome.forCommands")}
      </p>
      <p className="muted small" data-testid="welcome-compile">
        {t("welcome.compile")}{" "}
        <span className="ui-name">
          <WandSparkles size={12} aria-hidden /> {t("welcome.compileButton")}
        </span>{" "}
        {t("welcome.compileWhere")}
      </p>
      {props.textOnly && (
        <p className="notice small">
          {t("welcome.textOnly")} <code>/ls</code> {t("welcome.browseYourself")}
        </p>
      )}
      <ul className="examples" aria-label={t("welcome.examples")}>
        {exampleQuestions(props.scopeURI, props.label).map((q) => (
          <li key={q}>
            <button type="button" className="example" onClick={() => props.onPick(q)}>
              {q}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
