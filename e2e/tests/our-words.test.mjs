// Our words, not the API's (issue 40 item 7): the main screens show paths,
// not kb://users/ addresses, and no field name of the API, wherever the
// text comes from (answers' links, tool cards, sources, tooltips, chips).
import assert from "node:assert/strict";
import { describe } from "node:test";
import { askAndWait, chatBox } from "../lib/agent.mjs";
import { previewContent, treeItem } from "../lib/browser.mjs";
import { FAKE_LLM, withWorkspace } from "../lib/fixture.mjs";
import { ADMIN_USER } from "../lib/server.mjs";

const ROOT = `kb://users/${ADMIN_USER}/`;
const FIELDS = ["more_hits_in", "next_offset", "pending_files", "skipped_no_text", "scope_uri", "matched_files", "unranked_files", "bytes_read", "unembedded_files"];

/**
 * shownWords lists what the page shows a reader that has the address form or
 * a field name of the API: text, tooltips and accessible names, each with
 * the element that holds it.
 */
function shownWords(page, fields) {
  return page.evaluate((fields) => {
    const bad = (t) => t && (/kb:\/\/users\//.test(t) || / @ \d+/.test(t) || fields.some((f) => t.includes(f)));
    const where = (el) => `<${el.tagName.toLowerCase()} class="${el.className}">`;
    const out = [];
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const el = n.parentElement;
      if (!el || !el.checkVisibility() || !bad(n.textContent)) continue;
      out.push(`${where(el)} ${n.textContent.trim().slice(0, 120)}`);
    }
    for (const el of document.querySelectorAll("[title], [aria-label], [placeholder]")) {
      for (const a of ["title", "aria-label", "placeholder"]) if (bad(el.getAttribute(a))) out.push(`${where(el)} ${a}=${el.getAttribute(a)}`);
    }
    if (bad(document.title)) out.push(`title ${document.title}`);
    return out;
  }, fields);
}

async function assertOurWords(page, where) {
  assert.deepEqual(await shownWords(page, FIELDS), [], `${where} shows addresses, offsets or API fields`);
}

describe("the main screens speak our words", { timeout: 180_000 }, () => {
  const ws = withWorkspace({ env: FAKE_LLM, ready: ({ page }) => chatBox(page).waitFor() });

  ws.it("an answer with its tool card, sources and links, and the file it opens", async ({ page }) => {
    const { msg } = await askAndWait(page, "search my notes for plan");
    const card = msg.locator('.tool-card[data-tool="search"]');
    await card.locator("summary").click();
    await card.locator(".tool-hits li").first().waitFor();
    const sources = msg.getByTestId("sources");
    if ((await sources.count()) > 0) await sources.locator("summary").click();
    await assertOurWords(page, "the answer");

    await treeItem(page, `${ROOT}notes/`).click();
    await treeItem(page, `${ROOT}notes/research-plan.md`).click();
    await previewContent(page).getByRole("heading").first().waitFor();
    await assertOurWords(page, "the workspace with a file open");
  });

  ws.it("Settings' token list names a scoped token's folder by its path", async ({ page, api }) => {
    await api("/auth/tokens", { method: "POST", json: { name: "scoped", expires_in_days: 7, scope_uri: "kb://me/notes/", read_only: true }, status: 201 });
    await page.goto("/settings/tokens");
    await page.locator('tr[data-token="scoped"]').waitFor();
    await assertOurWords(page, "the token list");
  });
});
