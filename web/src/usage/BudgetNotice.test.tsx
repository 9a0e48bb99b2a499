// The chat and the compile dialog warn from 80 % of a budget and say when a
// spent one resets; below 80 % they say nothing.

import { act } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mountEach, withClient } from "../testing/mount";
import { BudgetNotice } from "./BudgetNotice";

const budget = (fraction: number, period = "day") => ({
  id: 1, scope: "user", subject_id: 1, subject: "alice", period, max_tokens: 1000, max_cost: 0,
  used_tokens: fraction * 1000, used_cost: 0, resets_at: "2026-12-07T00:00:00Z", fraction,
});

async function shown(page: ReturnType<typeof mountEach>, budgets: unknown[]) {
  vi.stubGlobal("fetch", vi.fn(async () => new Response(JSON.stringify({ budgets }), { status: 200, headers: { "Content-Type": "application/json" } })));
  await page.renderAsync(withClient(<BudgetNotice />));
  await act(async () => new Promise((r) => setTimeout(r, 0)));
  return page.host.querySelector('[data-testid="budget-notice"]');
}

describe("budget notice", () => {
  const page = mountEach();
  afterEach(() => vi.unstubAllGlobals());

  it("says nothing below 80 %", async () => {
    expect(await shown(page, [budget(0.5)])).toBeNull();
  });

  it("warns with the fullest budget from 80 %", async () => {
    const p = await shown(page, [budget(0.81), budget(0.92, "month")]);
    expect(p?.textContent).toBe("alice, per month: 92 % of the budget is used.");
  });

  it("says a spent budget waits for its reset", async () => {
    const p = await shown(page, [budget(1.3)]);
    expect(p?.className).toContain("spent");
    expect(p?.textContent).toMatch(/^alice, per day: the budget is spent until /);
  });
});
