// A file compile made is read-only (issue 35, finding 10): an upload over a
// summary is refused generated_read_only, the tree offers "Copy to edit"
// instead of Rename, and the copy is an ordinary file with the same text,
// selected and opened.

import assert from "node:assert/strict";
import { describe } from "node:test";
import { treeItem } from "../lib/browser.mjs";
import { ADMIN_USER } from "../lib/server.mjs";
import { compileOne } from "../lib/compile.mjs";
import { FAKE_LLM, withWorkspace } from "../lib/fixture.mjs";

const ROOT = `kb://users/${ADMIN_USER}/`;
const NOTES = `${ROOT}notes/`;
const PLAN = `${NOTES}research-plan.md`;

describe("copy to edit", { timeout: 120_000 }, () => {
  const ws = withWorkspace({ env: FAKE_LLM });

  const api = (path, init) => ws.api.raw(path, init);
  async function listing(uri) {
    const res = await api(`/resources?uri=${encodeURIComponent(uri)}&limit=500`);
    assert.equal(res.status, 200);
    return (await res.json()).items;
  }
  async function raw(uri) {
    const res = await api(`/resources/raw?uri=${encodeURIComponent(uri)}`);
    assert.equal(res.status, 200);
    return res.text();
  }

  ws.it(
    "refuses an upload over a summary and copies it to an ordinary file",
    async ({ page }) => {
      await treeItem(page, NOTES).click();
      await compileOne(page, /research-plan\.md/);
      await treeItem(page, PLAN).locator('[data-badge="fresh"]').waitFor({ timeout: 30_000 });

      const summary = (await listing(NOTES)).find((n) => n.uri === PLAN).summary_uri;
      assert.ok(summary?.startsWith(`${ROOT}wiki/`), `summary at ${summary}`);
      const text = await raw(summary);

      const form = new FormData();
      form.append("file", new Blob(["my edit"]), summary.split("/").at(-1));
      const folder = summary.slice(0, summary.lastIndexOf("/") + 1);
      const up = await api(`/resources/upload?uri=${encodeURIComponent(folder)}&on_conflict=replace`, { method: "POST", body: form });
      assert.equal(up.status, 403);
      assert.equal((await up.json()).error.code, "generated_read_only");
      assert.equal(await raw(summary), text, "the summary is unchanged");

      // Open the summary's folders in the tree, then the summary.
      const segs = folder.slice(ROOT.length).split("/").filter(Boolean);
      for (let i = 1; i <= segs.length; i++) await treeItem(page, `${ROOT}${segs.slice(0, i).join("/")}/`).click();
      await treeItem(page, summary).click();
      assert.equal(await page.getByRole("button", { name: "Rename" }).isDisabled(), true, "a summary is not renamed");
      assert.equal(await page.getByRole("button", { name: "Delete" }).isDisabled(), false, "a summary may be deleted");
      await page.getByRole("button", { name: "Copy to edit" }).click();

      const name = summary.split("/").at(-1).replace(/\.md$/, "");
      const copy = `${ROOT}${name} (copy).md`;
      const row = treeItem(page, copy);
      await row.waitFor();
      await page.waitForFunction((uri) => document.querySelector(`[role="treeitem"][data-uri="${uri}"]`)?.getAttribute("aria-selected") === "true", copy);
      assert.equal(await raw(copy), text, "the copy holds the summary's text");
      assert.equal((await listing(ROOT)).find((n) => n.uri === copy).generated, false, "the copy is an ordinary file");
      assert.equal(await page.getByRole("button", { name: "Rename" }).isDisabled(), false, "the copy may be renamed");
    },
  );
});
