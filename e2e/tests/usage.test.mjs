// Usage in the browser: a question asked in the chat shows up in Settings →
// Usage (chart and model row); an admin sets a budget for a user in the
// Admin form and the user sees it, then is refused a question once it is
// spent, with the reason in our words; axe clean; Chinese present.

import assert from "node:assert/strict";
import { describe } from "node:test";
import { askAndWait, chatBox, lastAssistant } from "../lib/agent.mjs";
import { assertAccessible } from "../lib/axe.mjs";
import { screenshot } from "../lib/browser.mjs";
import { FAKE_LLM, withWorkspace } from "../lib/fixture.mjs";

describe("usage and budgets", { timeout: 120_000 }, () => {
  const ws = withWorkspace({ env: FAKE_LLM, ready: ({ page }) => chatBox(page).waitFor() });

  ws.it("a question is counted in Settings → Usage", async ({ page }) => {
    await askAndWait(page, "What is in my notes?");
    await page.goto("/settings/usage");
    const chart = page.getByRole("img", { name: /Tokens per day over 30 days/ });
    await chart.waitFor();
    assert.ok((await page.locator("svg rect").count()) >= 1, "today's bar is drawn");
    const modelRow = page.getByRole("table", { name: "Usage by model" }).locator("tbody tr").first();
    assert.match(await modelRow.innerText(), /fake/);
    await page.getByRole("table", { name: "Usage by purpose" }).getByText("Questions").waitFor();
    await screenshot(page, "settings-usage");
    await assertAccessible(page);
  });

  ws.it("an admin's budget is shown to the user and, once spent, refuses the next question", async ({ page, api }) => {
    await api.createUser("carol", "carol-password-1");
    const carol = await ws.open({ user: "carol", password: "carol-password-1" });
    await chatBox(carol).waitFor();

    await page.goto("/admin/usage");
    await page.getByRole("heading", { name: "Model usage" }).waitFor();
    await page.getByLabel("Applies to").selectOption("user");
    await page.getByRole("combobox", { name: /^User/ }).selectOption({ label: "carol" });
    await page.getByLabel("Max tokens").fill("1");
    await page.getByRole("button", { name: "Set budget" }).click();
    await page.locator(".budget-list").getByText("carol, per day").waitFor();
    await assertAccessible(page);

    await askAndWait(carol, "spend my one token");
    await carol.goto("/settings/usage");
    const budget = carol.locator(".budget-list li").first();
    await budget.getByText("carol, per day").waitFor();
    assert.match(await budget.innerText(), /Spent/);
    await carol.goto("/");
    await chatBox(carol).waitFor();
    await carol.getByTestId("budget-notice").getByText("the budget is spent until", { exact: false }).waitFor();
    await chatBox(carol).fill("one more?");
    await chatBox(carol).press("Enter");
    await carol.getByText("A usage budget is spent.", { exact: false }).first().waitFor();
    assert.notEqual(await lastAssistant(carol).getAttribute("data-status"), "done");

    const zh = await ws.open({ signIn: false, locale: "zh-CN" });
    await zh.goto("/");
    await zh.getByLabel("用户名").fill("carol");
    await zh.getByLabel("密码").fill("carol-password-1");
    await zh.getByRole("button", { name: "登录" }).click();
    await zh.getByRole("tree").waitFor();
    await zh.goto("/settings/usage");
    await zh.getByRole("heading", { name: "用量", exact: true }).waitFor();
  });
});
