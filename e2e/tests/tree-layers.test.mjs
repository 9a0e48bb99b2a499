// The compiled layers in the tree (issue 16): after a compile with the fake
// model, the source folder's row shows its abstract (muted, on the name's
// line, whole in the tooltip) without a refresh or a taller row, and "Open
// overview" in the toolbar opens the folder's L1.

import assert from "node:assert/strict";
import { describe } from "node:test";
import { screenshot, treeItem } from "../lib/browser.mjs";
import { ADMIN_USER } from "../lib/server.mjs";
import { compileOne } from "../lib/compile.mjs";
import { axeViolations, blocking, formatViolations } from "../lib/axe.mjs";
import { FAKE_LLM, withWorkspace } from "../lib/fixture.mjs";

const ROOT = `kb://users/${ADMIN_USER}/`;
const NOTES = `${ROOT}notes/`;
const PLAN = `${NOTES}research-plan.md`;

describe("tree layers", { timeout: 120_000 }, () => {
  const ws = withWorkspace({ env: FAKE_LLM });

  ws.it(
    "a compiled folder shows its abstract and opens its overview",
    async ({ page }) => {
      const notes = treeItem(page, NOTES);
      await notes.click();
      await page.locator(".scope-prefix", { hasText: /^notes\/$/ }).waitFor();
      const rowHeight = (await notes.boundingBox()).height;
      assert.equal(await notes.locator(".tree-abstract").count(), 0, "no abstract before the first compile");
      const overview = page.getByRole("button", { name: "Open overview" });
      assert.equal(await overview.isDisabled(), true, "nothing to open before the first compile");

      await compileOne(page, /research-plan\.md/);
      await treeItem(page, PLAN).locator('[data-badge="fresh"]').waitFor({ timeout: 30_000 });

      const abstract = notes.locator(".tree-abstract");
      await abstract.waitFor({ timeout: 15_000 });
      const text = (await abstract.innerText()).trim();
      assert.ok(text.length > 0 && [...text].length <= 300, `abstract of ${[...text].length} characters: ${text}`);
      const squash = (s) => s.replace(/\s+/g, " ").trim();
      const title = await notes.getAttribute("title");
      assert.ok(squash(title).startsWith(squash(text)), `the tooltip holds the abstract: ${title}`);
      assert.match(await notes.getAttribute("title"), /\n\nnotes\/$/);
      assert.equal((await notes.boundingBox()).height, rowHeight, "the abstract does not change the row height");
      await screenshot(page, "tree-layers-abstract");
      const bad = blocking(await axeViolations(page));
      assert.equal(bad.length, 0, formatViolations(bad));

      await notes.click();
      await overview.waitFor();
      assert.equal(await overview.isDisabled(), false);
      await overview.click();
      await page.waitForURL(/\?open=kb%3A%2F%2Fusers%2Fadmin%2Fwiki%2Fnotes%2F\.overview\.md$/);
      assert.equal(await page.locator(".preview .panel-title .ellipsis").first().innerText(), ".overview.md");
      await screenshot(page, "tree-layers-overview");
    },
  );
});
