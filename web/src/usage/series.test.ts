import { describe, expect, it } from "vitest";
import type { UsageRow } from "./api";
import { daySeries, everyDay, totalsBy } from "./series";

const row = (day: string, model: string, purpose: string, input: number, output: number, estimated = 0): UsageRow => ({
  day, model, purpose: purpose as UsageRow["purpose"], input_tokens: input, output_tokens: output,
  calls: 1, estimated_calls: estimated, cost: input / 1e6, user_id: 1, username: "alice",
});

describe("usage series", () => {
  it("puts every day on the axis, across a month's end", () => {
    expect(everyDay("2026-11-29", "2026-12-02")).toEqual(["2026-11-29", "2026-11-30", "2026-12-01", "2026-12-02"]);
  });

  it("stacks each day's tokens by model, empty days at zero", () => {
    const s = daySeries([row("2026-12-01", "b", "chat", 10, 5), row("2026-12-01", "a", "compile", 100, 1), row("2026-12-03", "b", "chat", 1, 1)], "2026-12-01", "2026-12-03");
    expect(s.models).toEqual(["a", "b"]);
    expect(s.tokens).toEqual([[101, 15], [0, 0], [0, 2]]);
  });

  it("adds up by a key, largest first, keeping the estimated calls apart", () => {
    const t = totalsBy([row("d", "a", "chat", 1, 1, 1), row("d", "b", "chat", 50, 0), row("e", "a", "compile", 2, 2)], (r) => r.model);
    expect(t.map((x) => [x.key, x.input + x.output, x.calls, x.estimatedCalls])).toEqual([["b", 50, 1, 0], ["a", 6, 2, 1]]);
  });
});
