// The Admin page: users, every user's tokens and jobs, groups, models and
// an overview, each section at /admin/<section>. Admins only; the server
// refuses the endpoints to anyone else anyway.

import { useTranslation } from "react-i18next";
import type { User } from "../api/types";
import { sectionOf, usePath } from "../layout/route";
import { PageShell } from "../settings/PageShell";
import { AdminJobsSection } from "./AdminJobsSection";
import { AdminTokensSection } from "./AdminTokensSection";
import { GroupsPanel } from "./GroupsPanel";
import { ModelsSection } from "./ModelsSection";
import { OverviewSection } from "./OverviewSection";
import { UsersSection } from "./UsersSection";

const sections = ["users", "tokens", "jobs", "groups", "models", "overview"] as const;

export default function AdminPage({ user }: { user: User }) {
  const { t } = useTranslation("admin");
  const section = sectionOf(usePath(), "/admin", sections);
  const labels = {
    users: t("nav.users"),
    tokens: t("nav.tokens"),
    jobs: t("nav.jobs"),
    groups: t("nav.groups"),
    models: t("nav.models"),
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
          {section === "tokens" && <AdminTokensSection />}
          {section === "jobs" && <AdminJobsSection />}
          {section === "groups" && (
            <section className="page-section" aria-labelledby="groups-h">
              <h2 id="groups-h">{labels.groups}</h2>
              <GroupsPanel />
            </section>
          )}
          {section === "models" && <ModelsSection />}
          {section === "overview" && <OverviewSection />}
        </>
      )}
    </PageShell>
  );
}
