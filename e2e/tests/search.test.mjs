import assert from "node:assert/strict";
import { describe } from "node:test";
import { NARROW, previewContent, screenshot, treeItem } from "../lib/browser.mjs";
import { ADMIN_USER } from "../lib/server.mjs";
import { askAndWait } from "../lib/agent.mjs";
import { assertAccessible } from "../lib/axe.mjs";
import { FAKE_LLM, withWorkspace } from "../lib/fixture.mjs";

const ROOT = `kb://users/${ADMIN_USER}/`;
const FIELD = `${ROOT}field/`;
const NOTES = `${FIELD}sightings.md`;
const PHRASE = "quokka lanterns";
// Typed in quotes, the phrase is searched as exact text (unquoted, its two
// words would be a ranked question: search-ranked.test.mjs).
const QUOTED = `"${PHRASE}"`;

// The phrase twice: on line 3 (page 1 of the preview) and after enough
// filler to land on page 2 (a page is 6,000 code points).
const FILLER = Array.from({ length: 260 }, (_, i) => `Filler line ${String(i).padStart(3, "0")} about nothing much.`);
const BODY = ["# Sightings", "", `First: the ${PHRASE} glow at dusk.`, "", ...FILLER, "", `Second: ${PHRASE} again, by the river.`, ""].join("\n");

describe("search over the tree, find in the previewed file, and the search tool", { timeout: 180_000 }, () => {
  const ws = withWorkspace({
    env: FAKE_LLM,
    seed: async ({ api }) => {
      await api.mkdir(FIELD);
      await api.upload(FIELD, { "sightings.md": BODY });
    },
  });
  // The last test looks at a narrow page of its own.
  const box = () => ws.current().getByRole("combobox", { name: /^Search / });
  const count = () => ws.current().getByTestId("tree-search-count");
  const findCount = () => ws.current().getByRole("search", { name: "Find in file" }).getByTestId("find-count");
  const pager = () => ws.current().getByRole("navigation", { name: "Pages" });

  /** currentMark is the text of the current hit's <mark> and its index among the page's marks. */
  const currentMark = () =>
    previewContent(ws.current()).evaluate((el) => {
      const marks = [...el.querySelectorAll("mark.find-hit")];
      const i = marks.findIndex((m) => m.classList.contains("find-current"));
      return { text: i >= 0 ? marks[i].textContent : null, index: i, count: marks.length };
    });

  ws.it(
    "Ctrl+K opens the search box; hits come grouped by file with marked snippets and an honest count",
    async ({ page }) => {
      await page.getByRole("tree", { name: "Files" }).focus();
      await page.keyboard.press("Control+k");
      assert.equal(await box().evaluate((el) => el === document.activeElement), true, "Ctrl+K focuses the search box");
      await page.keyboard.type(QUOTED);
      await count().filter({ hasText: /^2 hits in 1 file$/ }).waitFor();
      const list = page.getByRole("listbox", { name: `Results for ${PHRASE}` });
      assert.equal(await list.getByRole("group", { name: "sightings.md in field/" }).count(), 1);
      const options = list.getByRole("option");
      assert.equal(await options.count(), 2);
      assert.deepEqual(await list.locator("mark").allTextContents(), [PHRASE, PHRASE]);
      assert.equal(await box().getAttribute("aria-expanded"), "true");

      await assertAccessible(page, ".tree-search");
      await screenshot(page, "tree-search-wide");
    },
  );

  ws.it(
    "a content hit opens the preview at that hit, highlighted; Next hit moves to the second, on page 2",
    async ({ page }) => {
      await page.keyboard.press("ArrowDown");
      const first = page.getByRole("option").first();
      assert.equal(await box().getAttribute("aria-activedescendant"), await first.getAttribute("id"));
      assert.equal(await first.getAttribute("aria-selected"), "true");
      await page.keyboard.press("Enter");
      assert.equal(await box().getAttribute("aria-expanded"), "false");

      await findCount().filter({ hasText: /^Hit 1 of 2 \(whole file searched\)$/ }).waitFor();
      await treeItem(page, NOTES).and(page.locator('[aria-selected="true"]')).waitFor();
      await previewContent(page).locator("mark.find-current").waitFor();
      assert.deepEqual(await currentMark(), { text: PHRASE, index: 0, count: 1 });
      assert.match(await pager().innerText(), /Characters 1–6,000 of/);
      await screenshot(page, "preview-search-hit-wide");

      await page.getByRole("button", { name: "Next hit" }).click();
      await findCount().filter({ hasText: /^Hit 2 of 2/ }).waitFor();
      await pager().getByText(/Characters 6,001–/).waitFor();
      await previewContent(page).getByText(/by the river/).waitFor();
      await previewContent(page).locator("mark.find-current").waitFor();
      assert.deepEqual(await currentMark(), { text: PHRASE, index: 0, count: 1 });
      await page.getByRole("button", { name: "Previous hit" }).click();
      await findCount().filter({ hasText: /^Hit 1 of 2/ }).waitFor();
      await pager().getByText(/Characters 1–6,000/).waitFor();
    },
  );

  ws.it(
    "the second hit opens its own page; / in the tree returns to the box; a folder name opens the folder",
    async ({ page }) => {
      await box().click();
      await count().filter({ hasText: /^2 hits in 1 file$/ }).waitFor();
      await page.getByRole("option").nth(1).click();
      await findCount().filter({ hasText: /^Hit 2 of 2/ }).waitFor();
      await pager().getByText(/Characters 6,001–/).waitFor();
      await previewContent(page).locator("mark.find-current").waitFor();
      assert.equal((await currentMark()).text, PHRASE);

      await page.getByRole("tree", { name: "Files" }).focus();
      await page.keyboard.press("/");
      assert.equal(await box().evaluate((el) => el === document.activeElement), true, "/ in the tree focuses the search box");
      await box().fill("field");
      const names = page.getByRole("group", { name: "Names" });
      await names.getByRole("option", { name: /field/ }).waitFor();
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("Enter");
      await treeItem(page, FIELD).and(page.locator('[aria-selected="true"]')).waitFor();
      // The selected folder becomes the search's scope.
      await page.getByRole("combobox", { name: "Search field" }).waitFor();
      await page.keyboard.press("Escape");
      await page.keyboard.press("Escape");
      assert.equal(await page.getByRole("tree", { name: "Files" }).evaluate((el) => el === document.activeElement), true, "Escape twice returns to the tree");
    },
  );

  ws.it(
    "asking the fake model to find the phrase runs the search tool, cites the file, and its hits open marked",
    async ({ page }) => {
      const { msg } = await askAndWait(page, `find "${PHRASE}"`);
      const card = msg.locator('.tool-card[data-tool="search"]');
      await card.waitFor();
      assert.equal(await card.getAttribute("data-status"), "ok");
      const answer = await msg.locator(".answer").innerText();
      assert.match(answer, new RegExp(`I found 2 hits for "${PHRASE}"`));
      assert.match(answer, /sightings\.md/);
      // The card's second hit opens the preview there, the match marked.
      await card.locator("summary").click();
      await card.getByRole("button", { name: /^sightings\.md, line \d+/ }).nth(1).click();
      await findCount().filter({ hasText: /^Hit 2 of 2/ }).waitFor();
      await pager().getByText(/Characters 6,001–/).waitFor();
      await previewContent(page).locator("mark.find-current").waitFor();
      assert.equal((await currentMark()).text, PHRASE);
    },
  );

  ws.it(
    "on a narrow screen Ctrl+K shows the Files panel with the box focused, and a hit opens the Preview panel",
    async () => {
      const page = await ws.open({ viewport: NARROW });
      await page.getByRole("tab", { name: "KnowAgent" }).click();
      await page.getByRole("heading", { name: "KnowAgent" }).waitFor();
      await page.keyboard.press("Control+k");
      assert.equal(await page.getByRole("tab", { name: "Files" }).getAttribute("aria-selected"), "true");
      await page.waitForFunction(() => document.activeElement?.getAttribute("role") === "combobox");
      await page.keyboard.type(QUOTED);
      await count().filter({ hasText: /^2 hits in 1 file$/ }).waitFor();
      await screenshot(page, "tree-search-narrow");
      await page.getByRole("option").first().click();
      assert.equal(await page.getByRole("tab", { name: "Preview" }).getAttribute("aria-selected"), "true");
      await findCount().filter({ hasText: /^Hit 1 of 2/ }).waitFor();
      await previewContent(page).locator("mark.find-current").waitFor();
    },
  );
});
