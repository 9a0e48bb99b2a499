// Every user's compile jobs, filtered by state and user, with cancel.

import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { USERS, displayPath } from "../api/uri";
import { errorText } from "../ui/errors";
import { formatDate } from "../ui/format";
import { Outcome, QueryStatus } from "../ui/QueryStatus";
import { useAction } from "../ui/useAction";
import { useAdminJobs, useAdminUsers, useCancelAnyJob } from "./adminQueries";

const states = ["queued", "running", "succeeded", "failed", "cancelled"] as const;

export function AdminJobsSection() {
  const { t } = useTranslation("admin");
  const [state, setState] = useState("");
  const [userID, setUserID] = useState(0);
  const stateID = useId();
  const userSelectID = useId();
  const users = useAdminUsers();
  const jobs = useAdminJobs(state, userID);
  const cancelJob = useCancelAnyJob();
  const stateLabel = (s: string) => ((states as readonly string[]).includes(s) ? t(`jobs.states.${s}`) : s);

  const { error, notice, run } = useAction();
  const cancel = (id: number) => run(() => cancelJob.mutateAsync(id), t("jobs.cancelled", { id }));

  return (
    <section className="page-section" aria-labelledby="ajobs-h">
      <h2 id="ajobs-h">{t("jobs.heading")}</h2>
      <div className="page-form inline">
        <div className="field">
          <label htmlFor={stateID}>{t("jobs.state")}</label>
          <select id={stateID} value={state} onChange={(e) => setState(e.target.value)}>
            <option value="">{t("jobs.anyState")}</option>
            {states.map((s) => (
              <option key={s} value={s}>
                {stateLabel(s)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={userSelectID}>{t("jobs.user")}</label>
          <select id={userSelectID} value={userID} onChange={(e) => setUserID(Number(e.target.value))}>
            <option value={0}>{t("jobs.anyUser")}</option>
            {(users.data ?? []).map((u) => (
              <option key={u.id} value={u.id}>
                {u.username}
              </option>
            ))}
          </select>
        </div>
        <button type="button" className="btn" onClick={() => void jobs.refetch()}>
          {t("jobs.refresh")}
        </button>
      </div>
      <Outcome error={error} notice={notice} />
      <QueryStatus query={jobs} empty={t("jobs.none")} />
      {jobs.isSuccess && jobs.data.length > 0 && (
        <table className="page-table" aria-labelledby="ajobs-h">
          <thead>
            <tr>
              <th scope="col">{t("jobs.id")}</th>
              <th scope="col">{t("jobs.user")}</th>
              <th scope="col">{t("jobs.file")}</th>
              <th scope="col">{t("jobs.state")}</th>
              <th scope="col">{t("jobs.updated")}</th>
              <th scope="col">{t("actions")}</th>
            </tr>
          </thead>
          <tbody>
            {jobs.data.map((j) => (
              <tr key={j.id} data-job={j.id} data-state={j.state}>
                <td>{j.id}</td>
                <td>{j.username}</td>
                <td className="ellipsis" title={j.uri}>
                  {displayPath(j.uri, USERS)}
                </td>
                <td>
                  {stateLabel(j.state)}
                  {j.error && (
                    <span className="muted small" title={j.error.message}>
                      {" "}
                      · {errorText(j.error)}
                    </span>
                  )}
                </td>
                <td>{formatDate(j.updated_at)}</td>
                <td>
                  {(j.state === "queued" || j.state === "running") && (
                    <button type="button" className="btn small" aria-label={t("jobs.cancelNamed", { id: j.id, name: j.username })} onClick={() => void cancel(j.id)}>
                      {t("jobs.cancel")}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
