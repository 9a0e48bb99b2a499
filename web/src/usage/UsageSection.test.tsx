// Settings → Usage draws the caller's rows and budgets: a bar per day, a
// row per model with the estimated calls marked, a budget near its limit.

import { afterEach, describe, expect, it, vi } from "vitest";
import { act } from "react";
import i18n from "../i18n";
import { mountEach, withClient } from "../testing/mount";
import { UsageSection } from "./UsageSection";

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { "Content-Type": "application/json" } });
const row = (day: string, model: string, input: number, estimated = 0) => ({
  day, model, purpose: "chat", user_id: 1, username: "alice", calls: 1, estimated_calls: estimated, input_tokens: input, output_tokens: 10, cost: 0.5,
});

describe("usage section", () => {
  const page = mountEach();
  afterEach(() => {
    vi.unstubAllGlobals();
    void i18n.changeLanguage("en");
  });

  it("shows the chart, totals by model and a budget near its limit", async () => {
    vi.stubGlobal("fetch", vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      if (url.includes("/usage/budgets")) {
        return json({ budgets: [{ id: 3, scope: "user", subject_id: 1, subject: "alice", period: "day", max_tokens: 1000, max_cost: 0,
          used_tokens: 850, used_cost: 0, resets_at: "2026-12-07T00:00:00Z", fraction: 0.85 }] });
      }
      return json({ from: "2026-12-01", to: "2026-12-03", rows: [row("2026-12-01", "fast", 100), row("2026-12-03", "deep", 500, 1)] });
    }));
    await page.renderAsync(withClient(<UsageSection />));
    await act(async () => new Promise((r) => setTimeout(r, 0)));
    expect(page.host.querySelector('svg[role="img"]')?.getAttribute("aria-label")).toBe("Tokens per day over 3 days, 620 in all");
    expect(page.host.querySelectorAll("svg rect")).toHaveLength(2);
    const deep = page.host.querySelector('[data-usage="deep"]');
    expect(deep?.textContent).toContain("1 estimated");
    const budget = page.host.querySelector("[data-budget='3']");
    expect(budget?.className).toBe("near");
    expect(budget?.textContent).toContain("alice, per day");
    expect(budget?.textContent).toContain("850 of 1,000 tokens");
    expect(budget?.querySelector('[role="progressbar"]')?.getAttribute("aria-valuenow")).toBe("85");
  });
});
