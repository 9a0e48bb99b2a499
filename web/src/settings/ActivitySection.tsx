// The user's own sign-ins and the uses of their tokens, from the audit
// log: a sign-in they do not recognise is theirs to notice.

import { useTranslation } from "react-i18next";
import { AuditTable } from "../admin/AuditTable";
import { useOwnAudit } from "../admin/auditQueries";
import { messageOf } from "../ui/errors";

export function ActivitySection() {
  const { t } = useTranslation("settings");
  const audit = useOwnAudit();
  const events = audit.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <section className="page-section" aria-labelledby="activity-h">
      <h2 id="activity-h">{t("activity.heading")}</h2>
      <p className="muted small">{t("activity.note")}</p>
      {audit.isPending && <p className="muted">{t("activity.loading")}</p>}
      {audit.isError && (
        <p className="error" role="alert">
          {messageOf(audit.error)}
        </p>
      )}
      {audit.isSuccess && events.length === 0 && <p className="muted">{t("activity.none")}</p>}
      {events.length > 0 && <AuditTable events={events} labelledBy="activity-h" showUser={false} />}
      {audit.hasNextPage && (
        <button type="button" className="btn" disabled={audit.isFetchingNextPage} onClick={() => void audit.fetchNextPage()}>
          {t("activity.more")}
        </button>
      )}
    </section>
  );
}
