// The Admin page: users, every user's tokens and jobs, groups, models,
// usage and budgets, the audit log and an overview, each section at
// /admin/<section>. Admins only; the server refuses the endpoints to anyone
// else anyway.

import { useTranslation } from "react-i18next";
import type { User } from "../api/types";
import { sectionOf, usePath } from "../layout/route";
import { PageShell } from "../settings/PageShell";
import { AdminJobsSection } from "./AdminJobsSection";
import { AdminTokensSection } from "./AdminTokensSection";
import { AuditSection } from "./AuditSection";
import { GroupsPanel } from "./GroupsPanel";
import { ModelsSection } from "./ModelsSection";
import { OverviewSection } from "./OverviewSection";
import { UsersSection } from "./UsersSection";
import { UsageAdminSection } from "./UsageAdminSection";

const sections = ["users", "tokens", "jobs", "groups", "models", "usage", "audit", "overview"] as const;

export default function AdminPage({ user }: { user: User }) {
  const { t } = useTranslation("admin");
  const section = sectionOf(usePath(), "/admin", sections);
  const labels = {
    users: t("nav.users"),
    tokens: t("nav.tokens"),
    jobs: t("nav.jobs"),
    groups: t("nav.groups"),
    models: t("nav.models"),
    usage: t("nav.usage"),
    audit: t("nav.audit"),
    overview: t("nav.overview"),
  };
  const admin = user.role === "admin";
  return (
    <PageShell
      user={user}
      title={t("title")}
      navLabel={t("nav.label")}
      active={admin ? section : ""}
      items={admin ? sections.map((id) => ({ id, label: labels[id], href: `/admin/${id}` })) : []}
    >
      {!admin ? (
        <p className="error" role="alert" data-testid="admin-forbidden">
          {t("forbidden")}
        </p>
      ) : (
        <>
          {section === "users" && <UsersSection self={user} />}
          {section === "usage" && <UsageAdminSection />}
          {section === "tokens" && <AdminTokensSection />}
          {section === "jobs" && <AdminJobsSection />}
          {section === "groups" && (
            <section className="page-section" aria-labelledby="groups-h">
              <h2 id="groups-h">{labels.groups}</h2>
              <GroupsPanel />
            </section>
          )}
          {section === "audit" && <AuditSection />}
          {section === "models" && <ModelsSection />}
          {section === "overview" && <OverviewSection />}
        </>
      )}
    </PageShell>
  );
}
