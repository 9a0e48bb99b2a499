// Job and freshness badges in the tree (issue 7, SPEC §7/§11): a compile run
// from the compile dialog turns the file's badge to "summary" (fresh) and its
// summary appears under wiki/ without pressing refresh; a new upload of the
// source makes the badge "stale summary".

import assert from "node:assert/strict";
import { describe } from "node:test";
import { screenshot, treeItem } from "../lib/browser.mjs";
import { ADMIN_USER } from "../lib/server.mjs";
import { recordStreams } from "../lib/agent.mjs";
import { compileOne } from "../lib/compile.mjs";
import { FAKE_LLM, withWorkspace } from "../lib/fixture.mjs";

const ROOT = `kb://users/${ADMIN_USER}/`;
const NOTES = `${ROOT}notes/`;
const PLAN = `${NOTES}research-plan.md`;
const MINUTES = `${NOTES}会议纪要.md`;
const WIKI = `${ROOT}wiki/`;
const WIKI_NOTES = `${WIKI}notes/`;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));


describe("tree job and freshness badges", { timeout: 120_000 }, () => {
  const jobPolls = [];
  const ws = withWorkspace({
    env: FAKE_LLM,
    onPage: (p) =>
      p.on("request", (req) => {
        if (req.method() === "GET" && new URL(req.url()).pathname === "/api/v1/jobs") jobPolls.push(Date.now());
      }),
  });

  ws.it(
    "compile turns the badge fresh and brings the summary into wiki/ without refresh; a new upload makes it stale",
    async ({ page }) => {
      const streams = recordStreams(page);
      await treeItem(page, NOTES).click();
      await page.locator(".scope-prefix", { hasText: /^notes\/$/ }).waitFor();
      const plan = treeItem(page, PLAN);
      await plan.waitFor();
      assert.equal(await plan.locator("[data-badge]").count(), 0, "a file never compiled has no badge");
      assert.equal(await treeItem(page, WIKI).count(), 0, "no wiki/ before the first compile");
      assert.equal(jobPolls.length, 0, "nothing polls the jobs list while no job is known");
      const rowHeight = (await plan.boundingBox()).height;

      await compileOne(page, /research-plan\.md/);
      const t0 = Date.now();
      // queued / parsing / compiling may flash by; the end state is a fresh summary.
      await plan.locator('[data-badge="fresh"]').waitFor({ timeout: 30_000 });
      const settled = Date.now() - t0;
      assert.equal(await plan.getAttribute("data-job-state"), "succeeded");
      assert.equal(await plan.getAttribute("data-summary"), "fresh");
      assert.match(await plan.locator("[data-badge]").getAttribute("title"), /up to date/);
      assert.equal((await plan.boundingBox()).height, rowHeight, "a badge does not change the row height");

      // wiki/ appears in the root listing, and the summary below it.
      const wiki = treeItem(page, WIKI);
      await wiki.waitFor({ timeout: 10_000 });
      await wiki.click();
      await treeItem(page, WIKI_NOTES).click();
      const summary = treeItem(page, `${WIKI_NOTES}research-plan.md`);
      await summary.waitFor();
      assert.equal(await summary.getAttribute("data-kind"), "file");
      assert.equal(await summary.locator(".badge.generated").count(), 1, "the summary is marked generated");
      await screenshot(page, "tree-badges-wide");

      // Nothing active any more: the jobs list is not polled.
      await sleep(300);
      const polls = jobPolls.length;
      await sleep(2500);
      assert.equal(jobPolls.length, polls, "no polling once every job has finished");

      // A second compile while wiki/notes/ is open: its summary joins the open folder.
      await plan.click(); // back to notes/ as the chat's scope
      await page.locator(".scope-prefix", { hasText: /^notes\/$/ }).waitFor();
      await compileOne(page, /会议纪要\.md/);
      await treeItem(page, MINUTES).locator('[data-badge="fresh"]').waitFor({ timeout: 30_000 });
      await treeItem(page, `${WIKI_NOTES}会议纪要.md`).waitFor({ timeout: 10_000 });

      // A new version of the source: the summary is now stale, and says so.
      await plan.click();
      await page.getByTestId("upload-input").setInputFiles({
        name: "research-plan.md",
        mimeType: "text/markdown",
        buffer: Buffer.from("# Research plan\n\nRevised after the review: new milestones.\n"),
      });
      // The name is taken: the upload asks, and Replace makes a new version.
      const conflict = page.getByRole("dialog", { name: "File already exists" });
      await conflict.getByRole("button", { name: "Replace" }).click();
      await conflict.waitFor({ state: "detached" });
      const stale = plan.locator('[data-badge="stale"]');
      await stale.waitFor({ timeout: 15_000 });
      assert.equal(await stale.innerText(), "stale summary");
      assert.match(await stale.getAttribute("title"), /older upload/);
      assert.equal(await treeItem(page, MINUTES).locator('[data-badge="fresh"]').count(), 1, "the other file stays fresh");
      assert.equal((await plan.boundingBox()).height, rowHeight);
      await screenshot(page, "tree-badges-stale-wide");

      // Stale and failed differ without colour: each has its own icon and text.
      assert.equal(await stale.locator("svg").count(), 1, "the stale badge has an icon");

      // The summary badge links to the summary: with wiki/ collapsed, a click
      // reveals and selects it in the tree and opens it in the preview.
      await treeItem(page, WIKI).click();
      assert.equal(await treeItem(page, WIKI_NOTES).count(), 0, "wiki/ is collapsed");
      assert.match(await stale.getAttribute("href"), /^\?open=kb%3A%2F%2Fusers%2F/);
      await stale.click();
      const summaryRow = treeItem(page, `${WIKI_NOTES}research-plan.md`);
      await summaryRow.waitFor();
      assert.equal(await summaryRow.getAttribute("aria-selected"), "true");
      assert.equal(await page.locator(".preview .panel-title .ellipsis").first().innerText(), "research-plan.md");
      assert.match(page.url(), /\?open=kb%3A%2F%2Fusers%2Fadmin%2Fwiki%2Fnotes%2Fresearch-plan\.md$/);
      // The preview of a source offers the same link to keyboard users.
      await plan.click();
      await page.locator(".preview .panel-actions").getByRole("link", { name: "Stale summary" }).click();
      await summaryRow.waitFor();
      assert.equal(await summaryRow.getAttribute("aria-selected"), "true");
      assert.equal(streams.length, 0, "compile never reaches the chat model");
      console.log(`# compile settled to a fresh badge in ${settled} ms`);
    },
  );
});
