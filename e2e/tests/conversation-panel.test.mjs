// The conversations panel has room (issue 40 item 3): every folder's
// conversations by default, newest first under day headings, whole titles
// without Markdown, each with its folder; opening one selects its folder.
import assert from "node:assert/strict";
import { describe } from "node:test";
import { chatBox } from "../lib/agent.mjs";
import { assertAccessible } from "../lib/axe.mjs";
import { NARROW, screenshot, treeItem } from "../lib/browser.mjs";
import { FAKE_LLM, withWorkspace } from "../lib/fixture.mjs";
import { ADMIN_USER } from "../lib/server.mjs";

const ROOT = `kb://users/${ADMIN_USER}/`;
const LARGE = { width: 1440, height: 900 };

// Oldest first, as they are made; [folder, title as stored, title as shown].
const CONVERSATIONS = [
  ["projects/alpha/", "**Why** is the `alpha` build slow on the CI runners?", "Why is the alpha build slow on the CI runners?"],
  ["notes/", "# Summary of the research plan", "Summary of the research plan"],
  ["", "What does [Welcome.md](kb://me/Welcome.md) say about _search_?", "What does Welcome.md say about search?"],
  ["projects/alpha/", "List the open risks of alpha", "List the open risks of alpha"],
  ["notes/", "> compare the notes with last quarter's budget", "compare the notes with last quarter's budget"],
  ["", "- which files mention the travel budget?", "which files mention the travel budget?"],
  ["notes/", "~~old~~ new milestones of the research plan", "old new milestones of the research plan"],
  ["projects/alpha/", "__Alpha__ release checklist", "Alpha release checklist"],
  [
    "",
    "A long question that goes well past twenty-five characters: what changed between the first and the second draft of the plan?",
    "A long question that goes well past twenty-five characters: what changed between the first and the second draft of the plan?",
  ],
  ["", "*Hello* there", "Hello there"],
];

async function seed(ws) {
  await ws.api.mkdir(`${ROOT}projects/`);
  await ws.api.mkdir(`${ROOT}projects/alpha/`);
  for (const [folder, title] of CONVERSATIONS) {
    await ws.api("/knowledge-agent/conversations", { method: "POST", json: { uri: `${ROOT}${folder}`, title }, status: 201 });
  }
}

/** fullRows counts the list's rows that show whole, inside every clipping ancestor and the window. */
function fullRows(region) {
  return region.evaluate((el) => {
    let n = 0;
    for (const li of el.querySelectorAll("li[data-conversation-id]")) {
      const r = li.getBoundingClientRect();
      let top = 0;
      let bottom = window.innerHeight;
      for (let p = li.parentElement; p; p = p.parentElement) {
        const s = getComputedStyle(p);
        if (s.overflowY !== "visible" || s.display === "none") {
          const pr = p.getBoundingClientRect();
          top = Math.max(top, pr.top);
          bottom = Math.min(bottom, pr.bottom);
        }
      }
      if (r.height > 0 && r.top >= top - 0.5 && r.bottom <= bottom + 0.5) n++;
    }
    return n;
  });
}

describe("the conversations panel", { timeout: 180_000 }, () => {
  const ws = withWorkspace({ env: FAKE_LLM, seed, viewport: LARGE, ready: ({ page }) => chatBox(page).waitFor() });
  const panel = (page) => page.getByRole("region", { name: "Conversations" });

  ws.it(
    "at 1440×900 it shows at least 8 whole rows of every folder under day headings, titles without Markdown",
    async ({ page }) => {
      await page.getByRole("button", { name: "Conversations" }).click();
      const list = panel(page);
      await list.getByRole("heading", { name: "Today" }).waitFor();
      const rows = list.locator("li[data-conversation-id]");
      assert.equal(await rows.count(), CONVERSATIONS.length, "all folders by default");
      const rowCount = await fullRows(list);
      assert.ok(rowCount >= 8, `${rowCount} whole rows show`);
      await screenshot(page, "conversations-panel-wide");

      const shown = await list.locator(".conversation-title").allTextContents();
      assert.deepEqual(
        shown,
        CONVERSATIONS.map((c) => c[2]).reverse(),
        "newest first, whole titles, no Markdown",
      );
      for (const title of shown) assert.doesNotMatch(title, /[*`#~]|\]\(|^[>-] /, title);

      const folders = await list.locator(".conversation-folder").allTextContents();
      assert.deepEqual(new Set(folders), new Set(["Home", "notes/", "projects/alpha/"]));
      const text = await list.innerText();
      assert.doesNotMatch(text, /kb:\/\//, "folders are paths, not URIs");

      // "This folder only" keeps the old filter: the chat is about Home.
      await list.getByLabel("This folder only").check();
      await page.waitForFunction(() => document.querySelectorAll(".conversation-list li[data-conversation-id]").length === 4);
      await list.getByLabel("This folder only").uncheck();
      await page.waitForFunction(() => document.querySelectorAll(".conversation-list li[data-conversation-id]").length === 10);
    },
  );

  ws.it(
    "opening a conversation about another folder selects that folder in the tree and the chat's scope",
    async ({ page }) => {
      const list = panel(page);
      if (!(await list.isVisible())) await page.getByRole("button", { name: "Conversations" }).click();
      await list.locator(".conversation-open", { hasText: "Alpha release checklist" }).click();
      const alpha = treeItem(page, `${ROOT}projects/alpha/`);
      await alpha.waitFor();
      await page.waitForFunction(
        (uri) => document.querySelector(`[role="treeitem"][data-uri="${uri}"]`)?.getAttribute("aria-selected") === "true",
        `${ROOT}projects/alpha/`,
      );
      assert.equal(await list.isVisible(), false, "the panel gives way to the chat");
      assert.match(await page.locator(".scope-prefix").innerText(), /projects\/alpha\/?$/);
      assert.equal(await chatBox(page).isVisible(), true);
    },
  );

  ws.it(
    "from the keyboard: it opens on its search box, Escape closes it, Enter on a row opens that conversation",
    async ({ page }) => {
      const focusedLabel = () => page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.textContent);
      const button = page.getByRole("button", { name: "Conversations" });
      await button.focus();
      await page.keyboard.press("Enter");
      const list = panel(page);
      await list.getByRole("heading", { name: "Today" }).waitFor();
      assert.equal(await focusedLabel(), "Search conversations");
      await assertAccessible(page, ".conversation-list");
      await page.keyboard.press("Escape");
      await list.waitFor({ state: "hidden" });
      assert.equal(await focusedLabel(), "Conversations");

      await page.keyboard.press("Enter");
      await list.getByRole("heading", { name: "Today" }).waitFor();
      await page.keyboard.press("Tab"); // This folder only
      await page.keyboard.press("Tab");
      assert.match(await focusedLabel(), /^Hello there/);
      await page.keyboard.press("Enter");
      await list.waitFor({ state: "hidden" });
      await page.waitForFunction(() => document.activeElement?.getAttribute("aria-label") === "Message KnowAgent");
    },
  );

  ws.it(
    "on a phone it fills the KnowAgent tab",
    async () => {
      const page = await ws.open({ viewport: NARROW });
      await page.getByRole("tab", { name: "KnowAgent" }).click();
      await page.getByRole("button", { name: "Conversations" }).click();
      const list = panel(page);
      await list.getByRole("heading", { name: "Today" }).waitFor();
      const box = await list.boundingBox();
      const tabs = await page.getByRole("tablist", { name: "Panels" }).boundingBox();
      assert.ok(box.height >= 0.6 * NARROW.height, `the panel is ${box.height}px high`);
      assert.ok(box.y + box.height <= tabs.y + 1, "above the tab bar");
      const rowCount = await fullRows(list);
      assert.ok(rowCount >= 5, `${rowCount} whole rows show`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `page overflows by ${overflow}px`);
      await screenshot(page, "conversations-panel-narrow");
    },
  );
});
