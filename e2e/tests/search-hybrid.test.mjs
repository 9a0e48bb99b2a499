import assert from "node:assert/strict";
import { describe } from "node:test";
import { screenshot, treeItem } from "../lib/browser.mjs";
import { ADMIN_USER } from "../lib/server.mjs";
import { askAndWait, chatBox } from "../lib/agent.mjs";
import { FAKE_LLM, withWorkspace } from "../lib/fixture.mjs";

const ROOT = `kb://users/${ADMIN_USER}/`;
const ZOO = `${ROOT}zoo/`;
const FILES = {
  "burrows.md": "# Island notes\n\nBy daytime a quokka will sleep in shady burrows under the scrub.\n",
  "study.md": "# Study plan\n\nThe sleep study needs a budget and a quiet room.\n",
  "lanterns.md": "# Festival\n\nPaper lanterns glow over the river at dusk.\n",
};
// Misspelt: no word of it is a word of any file, so words alone find
// nothing; the fake model's vectors share the words' character trigrams.
const TYPO = "quokas slep burows";

/** waitEmbedded waits until a meaning search of uri has every file's vectors. */
async function waitEmbedded(api, uri, q, timeout = 30_000) {
  const until = Date.now() + timeout;
  for (;;) {
    const res = await api(`/search?uri=${encodeURIComponent(uri)}&q=${encodeURIComponent(q)}&mode=hybrid&kind=content`);
    if (res.complete && !res.unembedded_files && !res.unranked_files && !res.pending_files) return res;
    assert.ok(Date.now() < until, `the files of ${uri} were not embedded within ${timeout} ms: ${JSON.stringify(res)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe("with an embedding model, a question is searched by its words and its meaning", { timeout: 150_000 }, () => {
  const ws = withWorkspace({
    env: { ...FAKE_LLM, KB_FAKE_EMBEDDINGS: "1" },
    seed: async ({ api }) => {
      await api.mkdir(ZOO);
      await api.upload(ZOO, FILES);
      await waitEmbedded(api, ZOO, TYPO);
    },
  });

  ws.it("the search box finds the file of a misspelt question first, by words and meaning", async ({ page, api }) => {
    const options = await api("/knowledge-agent/options");
    assert.deepEqual(options.search, { modes: ["literal", "ranked", "hybrid", "meaning"], question_mode: "hybrid", embedding_model: "fake-embed" });
    const { meaning } = await api("/admin/overview");
    assert.equal(meaning.model, "fake-embed");
    assert.equal(meaning.waiting_files, 0, JSON.stringify(meaning));
    assert.ok(meaning.embedded_files >= 3 && meaning.chunks >= meaning.embedded_files, JSON.stringify(meaning));
    const ranked = await api(`/search?uri=${encodeURIComponent(ZOO)}&q=${encodeURIComponent(TYPO)}&mode=ranked`);
    assert.equal(ranked.items.length, 0, "no word of the question is in a file");

    await treeItem(page, ZOO).click();
    await page.getByRole("combobox", { name: "Search zoo" }).fill(TYPO);
    await page.getByTestId("tree-search-mode").filter({ hasText: /^Words and meaning$/ }).waitFor();
    const list = page.getByRole("listbox", { name: `Results for ${TYPO}` });
    await list.getByRole("group").first().waitFor();
    const files = await list.getByRole("group").evaluateAll((gs) => gs.map((g) => g.getAttribute("aria-label")));
    assert.equal(files[0], "burrows.md", `burrows.md comes first: ${files}`);
    assert.match(await list.getByRole("group").first().getByRole("option").first().innerText(), /quokka will sleep in shady burrows/);
    await screenshot(page, "tree-search-hybrid");
  });

  ws.it("the agent's search runs hybrid, and its tool card says so", async ({ page }) => {
    await chatBox(page).waitFor();
    const { msg } = await askAndWait(page, `find ${TYPO}`);
    const card = msg.locator('.tool-card[data-tool="search"]');
    await card.waitFor();
    assert.equal(await card.getByTestId("tool-mode").innerText(), "hybrid");
    assert.match(await card.locator(".tool-summary").innerText(), /^hybrid: /);
    await card.locator("summary").click();
    const first = card.locator(".tool-hits li").first();
    assert.match(await first.innerText(), /^burrows\.md, line \d+ /);
    await screenshot(page, "agent-tool-card-hybrid");
  });
});
