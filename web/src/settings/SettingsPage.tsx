// Settings: the signed-in user's account, their sign-ins, API tokens, connecting an agent,
// models and appearance,
// each section at its own URL (/settings/<section>).

import { useTranslation } from "react-i18next";
import type { User } from "../api/types";
import { sectionOf, usePath } from "../layout/route";
import { AccountSection } from "./AccountSection";
import { ActivitySection } from "./ActivitySection";
import { AppearanceSection } from "./AppearanceSection";
import { ConnectSection } from "./ConnectSection";
import { ModelsSection } from "./ModelsSection";
import { PageShell } from "./PageShell";
import { TokensSection } from "./TokensSection";
import { UsageSection } from "../usage/UsageSection";

const sections = ["account", "activity", "tokens", "connect", "models", "usage", "appearance"] as const;

export default function SettingsPage({ user }: { user: User }) {
  const { t } = useTranslation("settings");
  const section = sectionOf(usePath(), "/settings", sections);
  const labels = {
    account: t("nav.account"),
    activity: t("nav.activity"),
    tokens: t("nav.tokens"),
    connect: t("nav.connect"),
    models: t("nav.models"),
    usage: t("nav.usage"),
    appearance: t("nav.appearance"),
  };
  return (
    <PageShell
      user={user}
      title={t("title")}
      navLabel={t("nav.label")}
      active={section}
      items={sections.map((id) => ({ id, label: labels[id], href: `/settings/${id}` }))}
    >
      {section === "account" && <AccountSection />}
      {section === "activity" && <ActivitySection />}
      {section === "tokens" && <TokensSection />}
      {section === "connect" && <ConnectSection user={user} />}
      {section === "models" && <ModelsSection />}
      {section === "usage" && <UsageSection />}
      {section === "appearance" && <AppearanceSection />}
    </PageShell>
  );
}
