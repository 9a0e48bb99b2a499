// Admin → Usage: everyone's model usage (or one user's, or one group's
// members'), by user and by model, exported as CSV; and the budgets, set
// and removed here.

import { useState } from "react";
import type { FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { messageOf } from "../ui/errors";
import { QueryStatus } from "../ui/QueryStatus";
import { deleteBudget, downloadUsageCSV, fetchAdminUsage, fetchBudgets, putBudget } from "../usage/api";
import type { BudgetInput, UsageFilter } from "../usage/api";
import { BudgetList, useBudgetName } from "../usage/BudgetList";
import { daySeries, totalsBy } from "../usage/series";
import { TotalsTable } from "../usage/TotalsTable";
import { UsageChart } from "../usage/UsageChart";
import { useAdminUsers } from "./adminQueries";
import { useGroups } from "./groupQueries";

/** who is the filter's select value: "" everyone, "u:<id>" a user, "g:<id>" a group. */
function filterOf(who: string): UsageFilter {
  const [kind, id] = who.split(":");
  return kind === "u" ? { userId: Number(id) } : kind === "g" ? { groupId: Number(id) } : {};
}

export function UsageAdminSection() {
  const { t } = useTranslation("usage");
  const [who, setWho] = useState("");
  const users = useAdminUsers();
  const groups = useGroups();
  const filter = filterOf(who);
  const report = useQuery({ queryKey: ["usage", "admin", who], queryFn: ({ signal }) => fetchAdminUsage(filter, signal) });
  const exportCSV = useMutation({ mutationFn: () => downloadUsageCSV(filter) });
  const rows = report.data?.rows ?? [];
  return (
    <section className="page-section" aria-labelledby="admin-usage-h">
      <h2 id="admin-usage-h">{t("adminHeading")}</h2>
      <div className="page-form inline">
        <label className="field">
          <span>{t("whose")}</span>
          <select value={who} onChange={(e) => setWho(e.target.value)}>
            <option value="">{t("everyone")}</option>
            {(users.data ?? []).map((u) => (
              <option key={`u${u.id}`} value={`u:${u.id}`}>
                {u.username}
              </option>
            ))}
            {(groups.data ?? []).map((g) => (
              <option key={`g${g.id}`} value={`g:${g.id}`}>
                {t("groupOption", { name: g.name })}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="btn" disabled={exportCSV.isPending} onClick={() => exportCSV.mutate()}>
          {t("exportCSV")}
        </button>
      </div>
      {exportCSV.isError && (
        <p className="error" role="alert">
          {messageOf(exportCSV.error)}
        </p>
      )}
      <QueryStatus query={report} />
      {report.data && rows.length === 0 && <p>{t("none")}</p>}
      {report.data && rows.length > 0 && (
        <>
          <UsageChart series={daySeries(rows, report.data.from, report.data.to)} />
          <TotalsTable totals={totalsBy(rows, (r) => r.username || t("noUser"))} keyLabel={t("user")} label={t("byUser")} />
          <TotalsTable totals={totalsBy(rows, (r) => r.model)} keyLabel={t("model")} label={t("byModel")} />
        </>
      )}
      <BudgetsEditor />
    </section>
  );
}

function BudgetsEditor() {
  const { t } = useTranslation("usage");
  const qc = useQueryClient();
  const users = useAdminUsers();
  const groups = useGroups();
  const budgets = useQuery({ queryKey: ["usage", "budgets"], queryFn: ({ signal }) => fetchBudgets(signal) });
  const [scope, setScope] = useState<BudgetInput["scope"]>("user");
  const [subject, setSubject] = useState("");
  const [period, setPeriod] = useState<BudgetInput["period"]>("day");
  const [maxTokens, setMaxTokens] = useState("");
  const [maxCost, setMaxCost] = useState("");
  const refresh = () => qc.invalidateQueries({ queryKey: ["usage"] });
  const save = useMutation({ mutationFn: putBudget, onSuccess: refresh });
  const remove = useMutation({ mutationFn: deleteBudget, onSuccess: refresh });
  const name = useBudgetName();

  function submit(e: FormEvent) {
    e.preventDefault();
    const id = Number(subject) || undefined;
    save.mutate({
      scope,
      period,
      user_id: scope === "user" ? id : undefined,
      group_id: scope === "group" ? id : undefined,
      max_tokens: Number(maxTokens) || 0,
      max_cost: Number(maxCost) || 0,
    });
  }

  const subjects = scope === "user" ? (users.data ?? []).map((u) => [u.id, u.username] as const) : (groups.data ?? []).map((g) => [g.id, g.name] as const);
  return (
    <>
      <h3 id="budgets-h">{t("budgets")}</h3>
      <QueryStatus query={budgets} />
      {budgets.data &&
        (budgets.data.length === 0 ? (
          <p className="muted">{t("noBudgetsAdmin")}</p>
        ) : (
          <BudgetList
            budgets={budgets.data}
            actions={(b) => (
              <button type="button" className="btn small" aria-label={t("removeBudget", { name: name(b) })} onClick={() => remove.mutate(b.id)}>
                {t("remove")}
              </button>
            )}
          />
        ))}
      <form className="page-form inline" onSubmit={submit} aria-labelledby="budgets-h" noValidate>
        <label className="field">
          <span>{t("scope")}</span>
          <select value={scope} onChange={(e) => (setScope(e.target.value as BudgetInput["scope"]), setSubject(""))}>
            {(["user", "group", "global"] as const).map((s) => (
              <option key={s} value={s}>
                {t(`scopes.${s}`)}
              </option>
            ))}
          </select>
        </label>
        {scope !== "global" && (
          <label className="field">
            <span>{scope === "user" ? t("user") : t("group")}</span>
            <select value={subject} onChange={(e) => setSubject(e.target.value)} required>
              <option value="">—</option>
              {subjects.map(([id, n]) => (
                <option key={id} value={id}>
                  {n}
                </option>
              ))}
            </select>
          </label>
        )}
        <label className="field">
          <span>{t("period")}</span>
          <select value={period} onChange={(e) => setPeriod(e.target.value as BudgetInput["period"])}>
            <option value="day">{t("periods.day")}</option>
            <option value="month">{t("periods.month")}</option>
          </select>
        </label>
        <label className="field">
          <span>{t("maxTokens")}</span>
          <input type="number" min={0} inputMode="numeric" value={maxTokens} onChange={(e) => setMaxTokens(e.target.value)} />
        </label>
        <label className="field">
          <span>{t("maxCost")}</span>
          <input type="number" min={0} step="any" value={maxCost} onChange={(e) => setMaxCost(e.target.value)} />
        </label>
        <button type="submit" className="btn primary" disabled={save.isPending}>
          {t("setBudget")}
        </button>
      </form>
      {(save.isError || remove.isError) && (
        <p className="error" role="alert">
          {messageOf(save.error ?? remove.error)}
        </p>
      )}
    </>
  );
}
