// Tokens per day, a bar per day stacked by model, drawn as SVG; the
// totals table beside it carries the same numbers for screen readers.

import { useTranslation } from "react-i18next";
import { formatNumber } from "../ui/format";
import type { DaySeries } from "./series";

// Distinct in light and dark themes; a model past the eighth repeats a colour.
const colours = ["#2f6fd0", "#d9822b", "#3a9a5b", "#a855c7", "#c2410c", "#0e7490", "#b91c1c", "#6b7280"];

export function UsageChart({ series }: { series: DaySeries }) {
  const { t } = useTranslation("usage");
  const totals = series.tokens.map((d) => d.reduce((a, b) => a + b, 0));
  const top = Math.max(1, ...totals);
  const w = 12;
  const gap = 4;
  const h = 120;
  const width = series.days.length * (w + gap);
  const sum = totals.reduce((a, b) => a + b, 0);
  return (
    <figure className="usage-chart">
      <svg viewBox={`0 0 ${width} ${h}`} preserveAspectRatio="none" role="img"
        aria-label={t("chart.label", { days: series.days.length, tokens: formatNumber(sum) })}>
        {series.days.map((day, d) => {
          let y = h;
          return (
            <g key={day}>
              <title>{`${day}: ${formatNumber(totals[d]!)}`}</title>
              {series.models.map((m, i) => {
                const bar = (series.tokens[d]![i]! / top) * (h - 4);
                y -= bar;
                return bar > 0 ? <rect key={m} x={d * (w + gap)} y={y} width={w} height={bar} fill={colours[i % colours.length]} /> : null;
              })}
            </g>
          );
        })}
      </svg>
      <figcaption className="usage-legend">
        {series.models.map((m, i) => (
          <span key={m}>
            <i style={{ background: colours[i % colours.length] }} aria-hidden /> {m}
          </span>
        ))}
        <span className="muted">{t("chart.range", { from: series.days[0], to: series.days.at(-1) })}</span>
      </figcaption>
    </figure>
  );
}
