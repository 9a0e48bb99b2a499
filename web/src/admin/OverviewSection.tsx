// The numbers: users, files, bytes, jobs by state, streams on this server.

import { useTranslation } from "react-i18next";
import { formatBytes, formatNumber } from "../ui/format";
import { useOverview } from "./adminQueries";
import { QueryStatus } from "../ui/QueryStatus";

export function OverviewSection() {
  const { t } = useTranslation("admin");
  const o = useOverview();
  const stats: [string, string, string][] = o.data
    ? [
        ["users", t("overview.users"), formatNumber(o.data.users.total)],
        ["admins", t("overview.admins"), formatNumber(o.data.users.admins)],
        ["disabled", t("overview.disabled"), formatNumber(o.data.users.disabled)],
        ["files", t("overview.files"), formatNumber(o.data.files)],
        ["bytes", t("overview.bytes"), formatBytes(o.data.bytes)],
        ["streams", t("overview.streams"), formatNumber(o.data.active_streams)],
      ]
    : [];
  const jobStates = ["queued", "running", "succeeded", "failed", "cancelled"] as const;
  return (
    <section className="page-section" aria-labelledby="overview-h">
      <h2 id="overview-h">{t("overview.heading")}</h2>
      <QueryStatus query={o} />
      {o.data && (
        <>
          <dl className="stat-grid">
            {stats.map(([id, label, value]) => (
              <div key={id} className="stat" data-stat={id}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
          <h3>{t("overview.jobs")}</h3>
          <dl className="stat-grid">
            {jobStates.map((s) => (
              <div key={s} className="stat" data-stat={`jobs-${s}`}>
                <dt>{t(`jobs.states.${s}`)}</dt>
                <dd>{formatNumber(o.data.jobs[s] ?? 0)}</dd>
              </div>
            ))}
          </dl>
          {o.data.meaning && (
            <>
              <h3>{t("overview.meaning", { model: o.data.meaning.model })}</h3>
              <dl className="stat-grid">
                {(
                  [
                    ["embedded", o.data.meaning.embedded_files],
                    ["waiting", o.data.meaning.waiting_files],
                    ["failed", o.data.meaning.failed_files],
                    ["chunks", o.data.meaning.chunks],
                  ] as const
                ).map(([id, n]) => (
                  <div key={id} className="stat" data-stat={`meaning-${id}`}>
                    <dt>{t(`overview.meaningStats.${id}`)}</dt>
                    <dd>{formatNumber(n)}</dd>
                  </div>
                ))}
              </dl>
              {o.data.meaning.last_error && (
                <p className="error small" data-testid="meaning-error">
                  {t("overview.meaningPaused", { error: o.data.meaning.last_error })}
                </p>
              )}
            </>
          )}
          <p className="muted small">{t("overview.streamsNote")}</p>
        </>
      )}
    </section>
  );
}
