// The task center: compile jobs with state, stage, progress, failure reason,
// cancel and retry, refreshed while any job is active.

import { useTranslation } from "react-i18next";
import { LoaderCircle, RotateCcw, X } from "lucide-react";
import { ACTIVE_POLL_MS, useJobCommand, useJobs } from "../../api/jobQueries";
import { isActiveJob } from "../../tree/badges";
import { anyActive } from "../../tree/jobRefresh";
import { Dialog } from "../../ui/Dialog";
import { errorText, messageOf } from "../../ui/errors";
import type { Job } from "../../api/agent";
import { formatDate } from "../../ui/format";
import { jobTime } from "./jobTime";
import { attemptText } from "./jobText";

/** how often the open task center polls while no job is active */
const IDLE_POLL_MS = 5000;

export function TaskCenter(props: { display: (uri: string) => string; onClose: () => void }) {
  const { t } = useTranslation("agent");
  const jobs = useJobs((list) => (anyActive(list?.items) ? ACTIVE_POLL_MS : IDLE_POLL_MS));
  const command = useJobCommand();
  const error = command.isError ? messageOf(command.error) : null;
  const list = jobs.data?.items ?? [];
  return (
    <Dialog title={t("taskCenter")} onClose={props.onClose} className="wide task-center">
      {jobs.isPending && (
        <p className="muted small">
          <LoaderCircle size={12} className="spin" aria-hidden /> {t("tasks.loading")}
        </p>
      )}
      {jobs.isError && <p className="error small">{messageOf(jobs.error)}</p>}
      {error && (
        <p className="error small" role="alert">
          {error}
        </p>
      )}
      {jobs.isSuccess && list.length === 0 && <p className="muted">{t("tasks.none")}</p>}
      {list.length > 0 && (
        <ul className="job-list" aria-label={t("tasks.jobs")}>
          {list.map((j) => (
            <li key={j.id} className={`job state-${j.state}`} data-job-state={j.state}>
              <div className="job-head">
                <code className="ellipsis" title={props.display(j.uri)}>
                  {props.display(j.uri)}
                </code>
                <span className={`badge state-${j.state}`}>{t(`common:jobState.${j.state}`, { defaultValue: j.state })}</span>
              </div>
              <div className="job-meta small muted">
                {j.stage && <span>{t("tasks.stage", { stage: t(`common:jobStage.${j.stage}`, { defaultValue: j.stage }) })}</span>}
                {attemptText(j) && <span>{attemptText(j)}</span>}
                {j.output_uri && <span>{t("tasks.output", { uri: props.display(j.output_uri) })}</span>}
                <JobWhen job={j} />
              </div>
              {isActiveJob(j.state) && (
                <progress max={1} value={j.progress || 0} aria-label={t("tasks.progress", { uri: props.display(j.uri) })} />
              )}
              {j.error && j.state !== "succeeded" && (
                <p className="error small" title={j.error.message}>
                  {errorText(j.error)}
                </p>
              )}
              <div className="job-actions">
                {isActiveJob(j.state) && (
                  <button type="button" className="btn small" onClick={() => command.mutate({ id: j.id, command: "cancel" })}>
                    <X size={12} aria-hidden /> {t("common:cancel")}
                  </button>
                )}
                {(j.state === "failed" || j.state === "cancelled") && (
                  <button type="button" className="btn small" onClick={() => command.mutate({ id: j.id, command: "retry" })}>
                    <RotateCcw size={12} aria-hidden /> {t("common:retry")}
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={props.onClose}>
          {t("common:close")}
        </button>
      </div>
    </Dialog>
  );
}

function JobWhen({ job }: { job: Job }) {
  const { t } = useTranslation("agent");
  const when = jobTime(job);
  return (
    <time dateTime={when.iso}>{t(when.key, { time: formatDate(when.iso) })}</time>
  );
}
