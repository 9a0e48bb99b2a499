// Settings → Usage: the signed-in user's model usage over the last 30 days
// (a chart by day and model, totals by model and purpose) and the budgets
// that apply to them.

import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { QueryStatus } from "../ui/QueryStatus";
import { fetchMyBudgets, fetchMyUsage } from "./api";
import { BudgetList } from "./BudgetList";
import { daySeries, totalsBy } from "./series";
import { TotalsTable } from "./TotalsTable";
import { UsageChart } from "./UsageChart";

export function UsageSection() {
  const { t } = useTranslation("usage");
  const report = useQuery({ queryKey: ["usage", "mine"], queryFn: ({ signal }) => fetchMyUsage(signal) });
  const budgets = useQuery({ queryKey: ["usage", "my-budgets"], queryFn: ({ signal }) => fetchMyBudgets(signal) });
  const rows = report.data?.rows ?? [];
  return (
    <section className="page-section" aria-labelledby="usage-h">
      <h2 id="usage-h">{t("heading")}</h2>
      <p className="muted">{t("intro")}</p>
      <QueryStatus query={report} />
      {report.data && rows.length === 0 && <p>{t("none")}</p>}
      {report.data && rows.length > 0 && (
        <>
          <UsageChart series={daySeries(rows, report.data.from, report.data.to)} />
          <TotalsTable totals={totalsBy(rows, (r) => r.model)} keyLabel={t("model")} label={t("byModel")} />
          <TotalsTable totals={totalsBy(rows, (r) => r.purpose)} keyLabel={t("purpose")} label={t("byPurpose")} keyText={(p) => t(`purposes.${p}`)} />
        </>
      )}
      <h3>{t("budgets")}</h3>
      <QueryStatus query={budgets} />
      {budgets.data && (budgets.data.length === 0 ? <p className="muted">{t("noBudgets")}</p> : <BudgetList budgets={budgets.data} />)}
    </section>
  );
}
