import assert from "node:assert/strict";
import { describe } from "node:test";
import { previewContent, screenshot, treeItem } from "../lib/browser.mjs";
import { ADMIN_USER } from "../lib/server.mjs";
import { assertAccessible } from "../lib/axe.mjs";
import { withWorkspace } from "../lib/fixture.mjs";

const ROOT = `kb://users/${ADMIN_USER}/`;
const ZOO = `${ROOT}zoo/`;
const BURROWS = `${ZOO}burrows.md`;

// The question's words stand together in no file: a literal search finds
// nothing, and only burrows.md holds both quokka(s) and sleep.
const QUESTION = "where do quokkas sleep";
// The quoted phrase is in lanterns.md; its words, apart and out of order, in
// festival.md too, which a ranked search would list as well.
const PHRASE = "paper lanterns glow";
const FILES = {
  "burrows.md": "# Island notes\n\nBy daytime a quokka will sleep in shady burrows under the scrub.\n",
  "study.md": "# Study plan\n\nThe sleep study needs a budget and a quiet room.\n",
  "lanterns.md": "# Festival\n\nPaper lanterns glow over the river at dusk.\n",
  "festival.md": "# Stalls\n\nThe glow of the stalls: paper cranes, tea and lanterns.\n",
};

/** waitIndexed waits until a ranked search of the folder has ranked every file. */
async function waitIndexed(api, uri, q, timeout = 30_000) {
  const until = Date.now() + timeout;
  for (;;) {
    const res = await api(`/search?uri=${encodeURIComponent(uri)}&q=${encodeURIComponent(q)}&mode=ranked&kind=content`);
    if (res.complete && !res.unranked_files && !res.pending_files) return res;
    assert.ok(Date.now() < until, `the word index did not rank every file of ${uri} within ${timeout} ms: ${JSON.stringify(res)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe("the search box ranks a question's files and finds a quoted phrase exactly", { timeout: 120_000 }, () => {
  const ws = withWorkspace({
    seed: async ({ api }) => {
      await api.mkdir(ZOO);
      await api.upload(ZOO, FILES);
      await waitIndexed(api, ZOO, QUESTION);
    },
  });
  // The searches run in zoo/, so the sample files of the home folder stay out.
  const box = () => ws.current().getByRole("combobox", { name: "Search zoo" });
  const count = () => ws.current().getByTestId("tree-search-count");
  const mode = () => ws.current().getByTestId("tree-search-mode");

  ws.it(
    "a question whose words are in one file lists that file first, ranked by relevance",
    async ({ page, api }) => {
      const literal = await api(`/search?uri=${encodeURIComponent(ROOT)}&q=${encodeURIComponent(QUESTION)}&mode=literal`);
      assert.equal(literal.items.length, 0, "the question as typed is in no file");

      await treeItem(page, ZOO).click();
      await box().fill(QUESTION);
      await mode().filter({ hasText: /^Ranked by relevance$/ }).waitFor();
      await count().filter({ hasText: /^2 matching files$/ }).waitFor();
      const list = page.getByRole("listbox", { name: `Results for ${QUESTION}` });
      const files = await list.getByRole("group").evaluateAll((gs) => gs.map((g) => g.getAttribute("aria-label")));
      assert.deepEqual(files, ["burrows.md", "study.md"], "burrows.md, with both words, comes first");
      const best = list.getByRole("group").first().getByRole("option").first();
      assert.match(await best.innerText(), /quokka will sleep in shady burrows/);
      assert.deepEqual(await best.locator("mark").allTextContents(), ["quokka", "sleep"]);

      await assertAccessible(page, ".tree-search");
      await screenshot(page, "tree-search-ranked");

      // The passage opens its file with the first marked word found there.
      await best.click();
      await treeItem(page, BURROWS).and(page.locator('[aria-selected="true"]')).waitFor();
      await previewContent(page).locator("mark.find-current").waitFor();
      assert.equal(await previewContent(page).locator("mark.find-current").innerText(), "quokka");
    },
  );

  ws.it(
    "a quoted phrase is searched as exact text: only the file that holds it, the phrase marked",
    async ({ page }) => {
      await treeItem(page, ZOO).click();
      await box().fill(`"${PHRASE}"`);
      await mode().filter({ hasText: /^Exact text$/ }).waitFor();
      await count().filter({ hasText: /^1 hit in 1 file$/ }).waitFor();
      const list = page.getByRole("listbox", { name: `Results for ${PHRASE}` });
      assert.deepEqual(await list.getByRole("group").evaluateAll((gs) => gs.map((g) => g.getAttribute("aria-label"))), ["lanterns.md"]);
      assert.deepEqual(await list.locator("mark").allTextContents(), ["Paper lanterns glow"]);

      // The same words unquoted are a question: both files, ranked.
      await box().fill(PHRASE);
      await mode().filter({ hasText: /^Ranked by relevance$/ }).waitFor();
      await count().filter({ hasText: /^2 matching files$/ }).waitFor();
      const ranked = page.getByRole("listbox", { name: `Results for ${PHRASE}` });
      const files = await ranked.getByRole("group").evaluateAll((gs) => gs.map((g) => g.getAttribute("aria-label")));
      assert.deepEqual(files.sort(), ["festival.md", "lanterns.md"]);
    },
  );
});
