// Usage rows turned into what the screens draw: tokens per day per model,
// and totals by model and purpose.

import type { UsageRow } from "./api";

export interface DaySeries {
  days: string[];
  models: string[];
  /** tokens[d][m] is the input and output tokens of day d with model m */
  tokens: number[][];
}

/** everyDay lists the UTC days from from to to, inclusive. */
export function everyDay(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    out.push(new Date(t).toISOString().slice(0, 10));
  }
  return out;
}

/** daySeries puts every day of the range on the axis, days without calls at zero. */
export function daySeries(rows: UsageRow[], from: string, to: string): DaySeries {
  const days = everyDay(from, to);
  const models = [...new Set(rows.map((r) => r.model))].sort();
  const tokens = days.map(() => models.map(() => 0));
  for (const r of rows) {
    const d = days.indexOf(r.day);
    if (d >= 0) tokens[d]![models.indexOf(r.model)]! += r.input_tokens + r.output_tokens;
  }
  return { days, models, tokens };
}

export interface Total {
  key: string;
  calls: number;
  estimatedCalls: number;
  input: number;
  output: number;
  cost: number;
}

/** totalsBy adds the rows up by the key each row is given. */
export function totalsBy(rows: UsageRow[], key: (r: UsageRow) => string): Total[] {
  const by = new Map<string, Total>();
  for (const r of rows) {
    const k = key(r);
    const t = by.get(k) ?? { key: k, calls: 0, estimatedCalls: 0, input: 0, output: 0, cost: 0 };
    t.calls += r.calls;
    t.estimatedCalls += r.estimated_calls;
    t.input += r.input_tokens;
    t.output += r.output_tokens;
    t.cost += r.cost;
    by.set(k, t);
  }
  return [...by.values()].sort((a, b) => b.input + b.output - (a.input + a.output));
}
