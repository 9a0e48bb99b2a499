// Usage added up by one key (model, user, purpose), one row each.

import { useTranslation } from "react-i18next";
import { formatNumber } from "../ui/format";
import type { Total } from "./series";

export function TotalsTable(props: { totals: Total[]; keyLabel: string; label: string; keyText?: (k: string) => string }) {
  const { t } = useTranslation("usage");
  return (
    <table className="page-table" aria-label={props.label}>
      <thead>
        <tr>
          <th scope="col">{props.keyLabel}</th>
          <th scope="col">{t("calls")}</th>
          <th scope="col">{t("input")}</th>
          <th scope="col">{t("output")}</th>
          <th scope="col">{t("cost")}</th>
        </tr>
      </thead>
      <tbody>
        {props.totals.map((r) => (
          <tr key={r.key} data-usage={r.key}>
            <td>{props.keyText ? props.keyText(r.key) : r.key}</td>
            <td>
              {formatNumber(r.calls)}
              {r.estimatedCalls > 0 && (
                <span className="tag" title={t("estimatedTitle")}>
                  {t("estimated", { count: r.estimatedCalls })}
                </span>
              )}
            </td>
            <td>{formatNumber(r.input)}</td>
            <td>{formatNumber(r.output)}</td>
            <td>{r.cost > 0 ? r.cost.toFixed(4) : "—"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
