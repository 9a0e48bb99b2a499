// What a compile request queued: a job per file, followed live (queued,
// running, then succeeded or failed with its reason) until every one has
// ended, and the files it turned away with why.

import { useTranslation } from "react-i18next";
import { useMemo } from "react";
import { CircleAlert, CircleCheck, Clock, LoaderCircle } from "lucide-react";
import type { CompileResponse, Job, JobList } from "../../api/agent";
import { ACTIVE_POLL_MS, useJobs } from "../../api/jobQueries";
import { isActiveJob } from "../../tree/badges";
import { Dialog } from "../../ui/Dialog";
import { errorText } from "../../ui/errors";
import { useBudgetName } from "../../usage/BudgetList";

/**
 * followJobs is each submitted job as the jobs list says it is now; a job
 * the list does not hold (yet, or any more) stays as it was answered.
 */
export function followJobs(submitted: readonly Job[], list: readonly Job[] | undefined): Job[] {
  const now = new Map((list ?? []).map((j) => [j.id, j]));
  return submitted.map((j) => now.get(j.id) ?? j);
}

/** useFollowedJobs polls the caller's jobs while any submitted job is still queued or running. */
function useFollowedJobs(submitted: readonly Job[]): Job[] {
  const poll = (list: JobList | undefined) => (followJobs(submitted, list?.items).some((j) => isActiveJob(j.state)) ? ACTIVE_POLL_MS : false);
  const jobs = useJobs(poll, { onlyWhilePolled: true });
  return useMemo(() => followJobs(submitted, jobs.data?.items), [submitted, jobs.data]);
}

function StateIcon({ state }: { state: string }) {
  if (state === "queued") return <Clock size={11} aria-hidden />;
  if (state === "running") return <LoaderCircle size={11} className="spin" aria-hidden />;
  if (state === "succeeded") return <CircleCheck size={11} aria-hidden />;
  return <CircleAlert size={11} aria-hidden />;
}

export function CompileResult(props: { result: CompileResponse; display: (uri: string) => string; onClose: () => void; onTasks: () => void }) {
  const { t } = useTranslation("agent");
  const { result, display } = props;
  const budgetName = useBudgetName();
  const cut = result.budget;
  const jobs = useFollowedJobs(result.jobs);
  const ended = jobs.filter((j) => !isActiveJob(j.state));
  const count = (state: string) => jobs.filter((j) => j.state === state).length;
  return (
    <Dialog title={t("compile.submittedTitle")} onClose={props.onClose} className="wide compile-dialog">
      <div className="compile-result" data-testid="compile-result">
        <p>
          {result.rejected.length
            ? t("compile.queuedRejected", { count: result.jobs.length, rejected: result.rejected.length })
            : t("compile.queued", { count: result.jobs.length })}
        </p>
        {cut && (
          <p className="notice small budget-notice" role="status" data-testid="compile-budget-cut">
            {t("compile.budgetCut", {
              count: cut.queued,
              leftOut: cut.left_out,
              name: budgetName(cut),
              at: new Date(cut.resets_at).toLocaleString(),
            })}
          </p>
        )}
        {jobs.length > 0 && (
          <p className="small muted" role="status" data-testid="compile-progress" data-done={ended.length === jobs.length || undefined}>
            {ended.length === jobs.length
              ? t("compile.allEnded", { succeeded: count("succeeded"), failed: jobs.length - count("succeeded") })
              : t("compile.following", { ended: ended.length, count: jobs.length })}
          </p>
        )}
        <ul className="job-lines">
          {jobs.map((j) => (
            <li key={j.id} data-job-state={j.state} data-uri={j.uri}>
              <code>{display(j.uri)}</code>{" "}
              <span className={`badge state-${j.state}`}>
                <StateIcon state={j.state} /> {t(`common:jobState.${j.state}`, { defaultValue: j.state })}
              </span>
              {j.state === "running" && j.stage && <span className="muted small job-stage">{t("tasks.stage", { stage: t(`common:jobStage.${j.stage}`, { defaultValue: j.stage }) })}</span>}
              {j.error && j.state !== "succeeded" && (
                <span className="error small"> {errorText(j.error)}</span>
              )}
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
