// A newcomer's whole journey with the keyboard alone (issue 40): sign in,
// open a file, compile it to the end, ask, stop, open the conversation again
// from the list. No click and no focus(): only keys. Every screen on the way
// is checked with axe, light and dark, for serious or critical violations.

import assert from "node:assert/strict";
import { describe } from "node:test";
import { previewContent, screenshot, treeItem } from "../lib/browser.mjs";
import { ADMIN_PASSWORD, ADMIN_USER } from "../lib/server.mjs";
import { lastAssistant, waitStatus } from "../lib/agent.mjs";
import { assertAccessible } from "../lib/axe.mjs";
import { compileForm } from "../lib/compile.mjs";
import { FAKE_LLM, withWorkspace } from "../lib/fixture.mjs";
import { focusedName, tabTo } from "../lib/keyboard.mjs";

const ROOT = `kb://users/${ADMIN_USER}/`;
const PLAN = `${ROOT}notes/research-plan.md`;

describe("a newcomer's journey, keyboard only, with axe on every screen", { timeout: 240_000 }, () => {
  const ws = withWorkspace({ env: FAKE_LLM, signIn: false });

  ws.it("signs in, opens a file, compiles it, asks, stops, and opens the conversation again", async ({ page }) => {
    // The login screen.
    await page.goto("/");
    const username = page.getByLabel("Username");
    await username.waitFor();
    await assertAccessible(page);
    await page.keyboard.type(ADMIN_USER);
    await page.keyboard.press("Tab");
    await page.keyboard.type(ADMIN_PASSWORD);
    await page.keyboard.press("Enter");

    // Signed in, the keyboard is in the tree: open notes/ and the research plan.
    const tree = page.getByRole("tree", { name: "Files" });
    await tree.waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute("role") === "tree", null, { timeout: 5_000 });
    await treeItem(page, `${ROOT}notes/`).waitFor();
    await page.keyboard.press("n");
    await page.keyboard.press("ArrowRight");
    await treeItem(page, PLAN).waitFor();
    await page.waitForTimeout(800); // the type-ahead prefix lapses
    await page.keyboard.type("res");
    await page.keyboard.press("Enter");
    await previewContent(page).getByRole("heading").first().waitFor();
    await assertAccessible(page);

    // Compile it: the row's menu (Shift+F10), Compile…, the fake model, submit.
    await page.keyboard.press("Shift+F10");
    const menu = page.getByRole("menu");
    await menu.waitFor();
    await assertAccessible(page);
    await page.keyboard.press("ArrowDown");
    assert.equal(await focusedName(page), "menuitem:Compile…");
    await page.keyboard.press("Enter");
    const dialog = compileForm(page);
    await dialog.waitFor();
    await dialog.getByRole("checkbox", { name: "research-plan.md" }).waitFor();
    assert.ok(await dialog.evaluate((d) => d.contains(document.activeElement)), "focus is in the compile dialog");
    await assertAccessible(page);
    await tabTo(page, /^select:/);
    const model = dialog.getByRole("combobox", { name: "Compile model" });
    assert.ok(await model.evaluate((el) => el === document.activeElement), `the first select is the model, not ${await focusedName(page)}`);
    for (let i = 0; i < 10 && (await model.inputValue()) !== "fake"; i++) await page.keyboard.press("ArrowDown");
    assert.equal(await model.inputValue(), "fake");
    await tabTo(page, /^button:Compile 1 file$/);
    await page.keyboard.press("Enter");
    const result = dialog.getByTestId("compile-result");
    await result.waitFor();
    await result.locator('li[data-job-state="succeeded"]').waitFor({ timeout: 60_000 });
    await assertAccessible(page);
    await screenshot(page, "keyboard-journey-compiled-wide");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    assert.equal(await focusedName(page), "tree:Files", "closing the dialog gives the tree its focus back");

    // Ask a slow question, Tab to Stop, press it: the keyboard is back in the box.
    await tabTo(page, /^textarea:Message KnowAgent$/);
    await page.keyboard.type("[[slow]] a long answer that the keyboard stops before it is finished, long enough to stop");
    await page.keyboard.press("Enter");
    const msg = lastAssistant(page);
    await msg.locator(".answer").waitFor();
    await page.keyboard.press("Tab");
    assert.equal(await focusedName(page), "button:Stop");
    await page.keyboard.press("Enter");
    assert.equal(await waitStatus(msg, ["stopped", "done"]), "stopped");
    assert.equal(await focusedName(page), "textarea:Message KnowAgent");
    await assertAccessible(page);

    // A new conversation, then the list: the one just asked opens again.
    await tabTo(page, /^button:New conversation$/);
    await page.keyboard.press("Enter");
    await msg.waitFor({ state: "detached" });
    await tabTo(page, /^button:Conversations$/);
    await page.keyboard.press("Enter");
    const list = page.getByRole("region", { name: "Conversations" });
    await list.getByRole("heading", { name: "Today" }).waitFor();
    await assertAccessible(page);
    await page.keyboard.press("Tab"); // This folder only
    await page.keyboard.press("Tab");
    assert.match(await focusedName(page), /\[\[slow\]\] a long answer|a long answer/);
    await page.keyboard.press("Enter");
    await list.waitFor({ state: "hidden" });
    const reopened = lastAssistant(page);
    await reopened.waitFor();
    assert.equal(await reopened.getAttribute("data-status"), "stopped");
    await page.waitForFunction(() => document.activeElement?.getAttribute("aria-label") === "Message KnowAgent");
    await assertAccessible(page);
    await screenshot(page, "keyboard-journey-reopened-wide");
  });
});
