// A batch cut to what a budget leaves says so above its jobs, naming the
// budget and its reset, in English and in Chinese.

import { act } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import i18n from "../../i18n";
import { mountEach, withClient } from "../../testing/mount";
import { CompileResult } from "./CompileResult";

const job = (id: number) => ({
  id, kind: "wiki_compile", uri: `kb://users/alice/obs/f${id}.md`, state: "queued", stage: "", progress: 0, attempts: 0,
  configuration: {}, created_at: "2026-12-06T10:00:00Z", updated_at: "2026-12-06T10:00:00Z",
});

const cut = {
  jobs: [job(1), job(2)],
  rejected: [3, 4, 5].map((i) => ({ uri: `kb://users/alice/obs/f${i}.md`, code: "budget_exceeded", message: "not queued" })),
  budget: { queued: 2, left_out: 3, scope: "user", subject: "alice", period: "day", resets_at: "2026-12-07T00:00:00Z" },
};

async function shown(page: ReturnType<typeof mountEach>, result: unknown) {
  vi.stubGlobal("fetch", vi.fn(async () => new Response(JSON.stringify({ items: [] }), { status: 200, headers: { "Content-Type": "application/json" } })));
  await page.renderAsync(
    withClient(<CompileResult result={result as never} display={(u) => u} onClose={() => {}} onTasks={() => {}} />),
  );
  await act(async () => new Promise((r) => setTimeout(r, 0)));
  return page.host.ownerDocument.querySelector('[data-testid="compile-budget-cut"]');
}

describe("compile result under a budget", () => {
  const page = mountEach();
  afterEach(async () => {
    vi.unstubAllGlobals();
    await i18n.changeLanguage("en");
  });

  it("says only what fits was queued, and which budget", async () => {
    const p = await shown(page, cut);
    expect(p?.textContent).toMatch(/^Only 2 files fit in what is left of the budget “alice, per day”, so only they were queued; the other 3 were left out\./);
  });

  it("says it in Chinese", async () => {
    await i18n.changeLanguage("zh-CN");
    const p = await shown(page, cut);
    expect(p?.textContent).toMatch(/^预算“alice，每天”的剩余额度只够 2 个文件/);
  });

  it("says nothing of a budget when the batch fit", async () => {
    expect(await shown(page, { ...cut, budget: undefined, rejected: [] })).toBeNull();
  });
});
