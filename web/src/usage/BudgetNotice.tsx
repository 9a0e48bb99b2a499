// A line that warns before the next question or compile is refused: a
// budget that applies to the user is 80 % used, or spent until its reset.
// Read again when refresh changes (a turn ended, a dialog opened).

import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { fetchMyBudgets } from "./api";
import { useBudgetName } from "./BudgetList";

export function BudgetNotice({ refresh }: { refresh?: unknown }) {
  const { t } = useTranslation("usage");
  const name = useBudgetName();
  const budgets = useQuery({
    queryKey: ["usage", "my-budgets", refresh],
    queryFn: ({ signal }) => fetchMyBudgets(signal),
    // No budgets route on an older server, or a failure: no notice.
    retry: false,
    staleTime: 10_000,
  });
  const worst = (budgets.data ?? []).reduce<(typeof budgets.data & {})[number] | null>(
    (w, b) => (b.fraction >= 0.8 && (!w || b.fraction > w.fraction) ? b : w),
    null,
  );
  if (!worst) return null;
  const text =
    worst.fraction >= 1
      ? t("spentNotice", { name: name(worst), at: new Date(worst.resets_at).toLocaleString() })
      : t("warning", { name: name(worst), pct: Math.round(worst.fraction * 100) });
  return (
    <p className={`notice small budget-notice${worst.fraction >= 1 ? " spent" : ""}`} role="status" data-testid="budget-notice">
      {text}
    </p>
  );
}
