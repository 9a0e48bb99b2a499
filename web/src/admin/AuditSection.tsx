// The audit log: who did what, when, from where, filtered by user, action
// and days, newest first, a page at a time; the filtered events export as
// JSON lines.

import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { messageOf } from "../ui/errors";
import { Outcome } from "../ui/QueryStatus";
import { saveBlob } from "../ui/saveBlob";
import { useAction } from "../ui/useAction";
import { useAdminUsers } from "./adminQueries";
import { exportAudit, noFilter } from "./auditApi";
import type { AuditAction, AuditFilter } from "./auditApi";
import { useAdminAudit } from "./auditQueries";
import { AuditTable } from "./AuditTable";

/** The actions the filter offers, in the order the log's reader thinks of them. */
export const auditActions: AuditAction[] = [
  "signin", "signin_failed", "logout", "logout_all", "password_change", "token_create", "token_revoke", "token_use",
  "share_grant", "share_change", "share_revoke", "group_create", "group_rename", "group_delete", "group_member_add",
  "group_member_remove", "user_create", "user_update", "delete", "purge", "trash_restore", "skill_change", "model_change",
  "conversation_export",
];

export function AuditSection() {
  const { t } = useTranslation("admin");
  const [filter, setFilter] = useState<AuditFilter>(noFilter);
  const set = (change: Partial<AuditFilter>) => setFilter((f) => ({ ...f, ...change }));
  const users = useAdminUsers();
  const audit = useAdminAudit(filter);
  const { error, notice, run } = useAction();
  const ids = { user: useId(), action: useId(), from: useId(), to: useId() };
  const events = audit.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <section className="page-section" aria-labelledby="audit-h">
      <h2 id="audit-h">{t("audit.heading")}</h2>
      <p className="muted small">
        {t("audit.note")} <code>audit.retention_days</code>
      </p>
      <div className="page-form inline">
        <div className="field">
          <label htmlFor={ids.user}>{t("audit.user")}</label>
          <select id={ids.user} value={filter.userID} onChange={(e) => set({ userID: Number(e.target.value) })}>
            <option value={0}>{t("audit.anyUser")}</option>
            {(users.data ?? []).map((u) => (
              <option key={u.id} value={u.id}>
                {u.username}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.action}>{t("audit.action")}</label>
          <select id={ids.action} value={filter.action} onChange={(e) => set({ action: e.target.value as AuditAction | "" })}>
            <option value="">{t("audit.anyAction")}</option>
            {auditActions.map((a) => (
              <option key={a} value={a}>
                {t(`audit.actions.${a}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.from}>{t("audit.fromDay")}</label>
          <input id={ids.from} type="date" value={filter.from} onChange={(e) => set({ from: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor={ids.to}>{t("audit.toDay")}</label>
          <input id={ids.to} type="date" value={filter.to} onChange={(e) => set({ to: e.target.value })} />
        </div>
        <button type="button" className="btn" onClick={() => void audit.refetch()}>
          {t("audit.refresh")}
        </button>
        <button
          type="button"
          className="btn"
          onClick={() => void run(async () => saveBlob(await exportAudit(filter), "knowspace-audit.jsonl"), t("audit.exported"))}
        >
          {t("audit.export")}
        </button>
      </div>
      <Outcome error={error} notice={notice} />
      {audit.isPending && <p className="muted">{t("loading")}</p>}
      {audit.isError && (
        <p className="error" role="alert">
          {messageOf(audit.error)}
        </p>
      )}
      {audit.isSuccess && events.length === 0 && <p className="muted">{t("audit.none")}</p>}
      {events.length > 0 && <AuditTable events={events} labelledBy="audit-h" showUser />}
      {audit.hasNextPage && (
        <button type="button" className="btn" disabled={audit.isFetchingNextPage} onClick={() => void audit.fetchNextPage()}>
          {t("audit.more")}
        </button>
      )}
    </section>
  );
}
