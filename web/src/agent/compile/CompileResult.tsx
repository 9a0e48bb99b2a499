// What a compile request queued: a job per file, with its state, and the
// files it turned away with why.

import { useTranslation } from "react-i18next";
import type { CompileResponse } from "../../api/agent";
import { Dialog } from "../../ui/Dialog";

export function CompileResult(props: { result: CompileResponse; display: (uri: string) => string; onClose: () => void; onTasks: () => void }) {
  const { t } = useTranslation("agent");
  const { result, display } = props;
  return (
    <Dialog title={t("compile.submittedTitle")} onClose={props.onClose} className="wide compile-dialog">
      <div className="compile-result" data-testid="compile-result">
        <p>
          {result.rejected.length
            ? t("compile.queuedRejected", { count: result.jobs.length, rejected: result.rejected.length })
            : t("compile.queued", { count: result.jobs.length })}
        </p>
        <ul className="job-lines">
          {result.jobs.map((j) => (
            <li key={j.id}>
              <code>{display(j.uri)}</code> <span className={`badge state-${j.state}`}>{t(`common:jobState.${j.state}`, { defaultValue: j.state })}</span>
            </li>
          ))}
        </ul>
        {result.rejected.length > 0 && (
          <ul className="job-lines rejected" aria-label={t("compile.notEnqueued")}>
            {result.rejected.map((r) => (
              <li key={r.uri}>
                <code>{display(r.uri)}</code> <span className="error small">{r.message}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={props.onClose}>
          {t("common:close")}
        </button>
        <button type="button" className="btn primary" onClick={props.onTasks}>
          {t("compile.openTasks")}
        </button>
      </div>
    </Dialog>
  );
}
