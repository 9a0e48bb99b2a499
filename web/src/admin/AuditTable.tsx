// Audit events as a table: when, who, what, on what, the change, the
// result and where from. The admin's audit screen and the user's own
// sign-ins in Settings both show it; what the server recorded (targets,
// settings, codes, addresses) is shown as code, not as the UI's words.

import { useTranslation } from "react-i18next";
import { formatDate } from "../ui/format";
import type { AuditEvent } from "./auditApi";

function change(ev: AuditEvent): string {
  const show = (v: unknown) => (v === undefined ? "" : JSON.stringify(v));
  if (ev.before && ev.after) return `${show(ev.before)} → ${show(ev.after)}`;
  return show(ev.before ?? ev.after) + (ev.source ? ` (${ev.source})` : "");
}

export function AuditTable({ events, labelledBy, showUser }: { events: AuditEvent[]; labelledBy: string; showUser: boolean }) {
  const { t } = useTranslation("admin");
  return (
    <table className="page-table" aria-labelledby={labelledBy}>
      <thead>
        <tr>
          <th scope="col">{t("audit.at")}</th>
          {showUser && <th scope="col">{t("audit.user")}</th>}
          <th scope="col">{t("audit.action")}</th>
          <th scope="col">{t("audit.target")}</th>
          <th scope="col">{t("audit.change")}</th>
          <th scope="col">{t("audit.result")}</th>
          <th scope="col">{t("audit.from")}</th>
        </tr>
      </thead>
      <tbody>
        {events.map((ev) => (
          <tr key={ev.id} data-audit={ev.action} data-user={ev.username ?? ""}>
            <td>{formatDate(ev.at)}</td>
            {showUser && (
              <td>
                {ev.username}
                {ev.token_id ? <span className="muted small"> · {t("audit.token", { id: ev.token_id })}</span> : null}
                {ev.provider ? <span className="muted small"> · {ev.provider}</span> : null}
              </td>
            )}
            <td>{t(`audit.actions.${ev.action}`)}</td>
            <td className="ellipsis">
              <code>{ev.target}</code>
            </td>
            <td className="ellipsis small">
              <code>{change(ev)}</code>
            </td>
            <td>
              {ev.result === "ok" ? t("audit.ok") : t(`audit.results.${ev.result}`)}
              {ev.code && (
                <>
                  {" · "}
                  <code>{ev.code}</code>
                </>
              )}
            </td>
            <td>
              <code>{ev.client_addr}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
