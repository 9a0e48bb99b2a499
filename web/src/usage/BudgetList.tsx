// Budgets with how much of each period is used: a bar, the numbers, and
// when it resets; past 80 % it says so.

import { useTranslation } from "react-i18next";
import { formatNumber } from "../ui/format";
import type { BudgetStatus } from "./api";

/** budgetName says whose budget it is and for how long, in our words. */
export function useBudgetName() {
  const { t } = useTranslation("usage");
  return (b: Pick<BudgetStatus, "scope" | "period" | "subject">) => t(`budget.${b.scope}.${b.period}`, { name: b.subject });
}

export function budgetUsed(b: BudgetStatus, t: (k: string, o?: Record<string, unknown>) => string): string {
  const parts: string[] = [];
  if (b.max_tokens > 0) parts.push(t("budget.tokens", { used: formatNumber(b.used_tokens), max: formatNumber(b.max_tokens) }));
  if (b.max_cost > 0) parts.push(t("budget.cost", { used: b.used_cost.toFixed(4), max: b.max_cost.toFixed(4) }));
  return parts.join(" · ");
}

export function BudgetList({ budgets, actions }: { budgets: BudgetStatus[]; actions?: (b: BudgetStatus) => React.ReactNode }) {
  const { t } = useTranslation("usage");
  const name = useBudgetName();
  return (
    <ul className="budget-list">
      {budgets.map((b) => {
        const pct = Math.round(b.fraction * 100);
        return (
          <li key={b.id} data-budget={b.id} className={b.fraction >= 1 ? "spent" : b.fraction >= 0.8 ? "near" : undefined}>
            <div className="budget-head">
              <strong>{name(b)}</strong>
              <span className="muted small">{budgetUsed(b, t)}</span>
              {actions?.(b)}
            </div>
            <div className="budget-bar" role="progressbar" aria-label={name(b)} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.min(pct, 100)}>
              <span style={{ width: `${Math.min(pct, 100)}%` }} />
            </div>
            <p className="muted small">
              {b.fraction >= 1 ? t("budget.spent") : b.fraction >= 0.8 ? t("budget.near", { pct }) : t("budget.used", { pct })}{" "}
              {t("budget.resets", { at: new Date(b.resets_at).toLocaleString() })}
            </p>
          </li>
        );
      })}
    </ul>
  );
}
