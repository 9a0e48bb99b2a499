import assert from "node:assert/strict";
import { describe } from "node:test";
import { previewContent, screenshot, treeItem } from "../lib/browser.mjs";
import { ADMIN_USER } from "../lib/server.mjs";
import { withWorkspace } from "../lib/fixture.mjs";

const ROOT = `kb://users/${ADMIN_USER}/`;

describe("browse and preview", { timeout: 120_000 }, () => {
  const ws = withWorkspace();

  ws.it(
    "the tree's title and every toolbar button are visible inside the panel, one row of buttons at the default width",
    async ({ page }) => {
      const panel = await page.locator(".tree-panel").boundingBox();
      const title = await page.locator(".tree-panel .panel-title").boundingBox();
      const buttons = await page.getByRole("toolbar").getByRole("button").evaluateAll((els) =>
        els.map((e) => {
          const r = e.getBoundingClientRect();
          return { name: e.getAttribute("aria-label"), left: r.left, right: r.right, top: r.top, bottom: r.bottom };
        }),
      );
      assert.ok(title.width > 20, `the title "Files" is squeezed to ${title.width}px`);
      for (const b of buttons) {
        assert.ok(b.left >= panel.x && b.right <= panel.x + panel.width, `${b.name} runs out of the panel: ${JSON.stringify(b)} in ${JSON.stringify(panel)}`);
        assert.ok(b.top >= title.y + title.height || b.left >= title.x + title.width, `${b.name} covers the title`);
      }
      assert.equal(new Set(buttons.map((b) => b.top)).size, 1, "the buttons fit one row");
    },
  );

  ws.it(
    "previews Welcome.md as rendered markdown",
    async ({ page }) => {
      await treeItem(page, `${ROOT}Welcome.md`).click();
      const h1 = previewContent(page).getByRole("heading", { level: 1, name: "Welcome to Knowspace" });
      await h1.waitFor();
      // Rendered, not shown as source.
      assert.equal(await previewContent(page).getByText("# Welcome to Knowspace").count(), 0);
      assert.equal(await treeItem(page, `${ROOT}Welcome.md`).getAttribute("aria-selected"), "true");
    },
  );

  ws.it(
    "an address with ?open= reveals and selects the file in the tree after a reload",
    async ({ page }) => {
      const file = `${ROOT}notes/research-plan.md`;
      await page.goto(`/?open=${encodeURIComponent(file)}`);
      const row = treeItem(page, file);
      await row.waitFor();
      assert.equal(await row.getAttribute("aria-selected"), "true");
      assert.equal(await treeItem(page, `${ROOT}notes/`).getAttribute("aria-expanded"), "true");
      await previewContent(page).getByRole("heading").first().waitFor();
      // Back to the state the next tests expect: notes/ closed, Welcome.md open.
      await treeItem(page, `${ROOT}notes/`).click();
      await treeItem(page, `${ROOT}Welcome.md`).click();
      assert.match(page.url(), /\?open=kb%3A%2F%2Fusers%2Fadmin%2FWelcome\.md$/);
    },
  );

  ws.it(
    "opens a folder lazily and previews the Chinese file",
    async ({ page }) => {
      const notes = treeItem(page, `${ROOT}notes/`);
      assert.equal(await notes.getAttribute("aria-expanded"), "false");
      await notes.click();
      assert.equal(await notes.getAttribute("aria-expanded"), "true");
      await treeItem(page, `${ROOT}notes/research-plan.md`).waitFor();
      await treeItem(page, `${ROOT}notes/archive/`).waitFor();
      await treeItem(page, `${ROOT}notes/会议纪要.md`).click();
      await previewContent(page).getByRole("heading", { level: 1, name: "会议纪要" }).waitFor();
      await screenshot(page, "preview-chinese-wide");
    },
  );

  ws.it(
    "opens a nested folder and previews a file in it",
    async ({ page }) => {
      await treeItem(page, `${ROOT}notes/archive/`).click();
      await treeItem(page, `${ROOT}notes/archive/2025-retro.md`).click();
      await previewContent(page).getByRole("heading").first().waitFor();
      await treeItem(page, `${ROOT}notes/research-plan.md`).click();
      await previewContent(page).getByRole("heading").first().waitFor();
    },
  );

  ws.it(
    "shows the CSV file as a table",
    async ({ page }) => {
      await treeItem(page, `${ROOT}data/`).click();
      await treeItem(page, `${ROOT}data/metrics.csv`).click();
      const table = previewContent(page).locator("table.csv");
      await table.waitFor();
      assert.ok((await table.locator("th").count()) >= 1, "the CSV table has a header row");
      assert.ok((await table.locator("tbody tr").count()) >= 1, "the CSV table has data rows");
    },
  );

  ws.it(
    "collapses a folder and moves through the tree with the keyboard",
    async ({ page }) => {
      const notes = treeItem(page, `${ROOT}notes/`);
      await notes.click();
      assert.equal(await notes.getAttribute("aria-expanded"), "false");
      assert.equal(await treeItem(page, `${ROOT}notes/research-plan.md`).count(), 0);
      // notes is selected; Right opens it, Down goes to its first child.
      await page.getByRole("tree", { name: "Files" }).focus();
      await page.keyboard.press("ArrowRight");
      await treeItem(page, `${ROOT}notes/research-plan.md`).waitFor();
      await page.keyboard.press("ArrowDown");
      assert.equal(await notes.getAttribute("aria-selected"), "false");
    },
  );

  ws.it(
    "downloads the raw file with the bearer token",
    async ({ page }) => {
      await treeItem(page, `${ROOT}Welcome.md`).click();
      await previewContent(page).getByRole("heading", { level: 1, name: "Welcome to Knowspace" }).waitFor();
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: "Download" }).click(),
      ]);
      assert.equal(download.suggestedFilename(), "Welcome.md");
      const stream = await download.createReadStream();
      let text = "";
      for await (const chunk of stream) text += chunk;
      assert.match(text, /# Welcome to Knowspace/);
    },
  );

  ws.it(
    "resizes panels by dragging a separator",
    async ({ page }) => {
      const previewPanel = page.locator("#preview");
      const before = (await previewPanel.boundingBox()).width;
      const sep = page.getByRole("separator").nth(1);
      const box = await sep.boundingBox();
      const y = box.y + box.height / 2;
      await page.mouse.move(box.x + box.width / 2, y);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width / 2 + 120, y, { steps: 8 });
      await page.mouse.up();
      const after = (await previewPanel.boundingBox()).width;
      assert.ok(after > before + 60, `preview panel widened by dragging (${before} → ${after})`);
    },
  );

  ws.it(
    "remembers the panel layout after a keyboard resize",
    async ({ page }) => {
      const treePanel = page.locator("#tree");
      const before = (await treePanel.boundingBox()).width;
      const sep = page.getByRole("separator").first();
      await sep.focus();
      for (let i = 0; i < 5; i++) await page.keyboard.press("ArrowRight");
      await page.waitForTimeout(300);
      const widened = (await treePanel.boundingBox()).width;
      assert.ok(widened > before + 20, `tree panel grew (${before} → ${widened})`);
      await page.reload();
      await page.getByRole("tree", { name: "Files" }).waitFor();
      const afterReload = (await treePanel.boundingBox()).width;
      assert.ok(Math.abs(afterReload - widened) < 3, `layout remembered (${widened} vs ${afterReload})`);
    },
  );

  ws.it(
    "a file deep in long folders keeps its whole name in the preview's title; the path gives way",
    async ({ page }) => {
      let folder = ROOT;
      for (const name of ["an-uncommonly-long-folder-name-for-the-header", "and-a-second-level-that-is-long-too"]) {
        folder += `${name}/`;
        await ws.api.mkdir(folder);
      }
      await ws.api.upload(folder, { "quarterly-report-2026.md": "# Q4\n" });
      await page.goto(`/?open=${encodeURIComponent(`${folder}quarterly-report-2026.md`)}`);
      const title = page.locator(".preview-title");
      await title.getByText("quarterly-report-2026.md", { exact: true }).waitFor();
      const [name, path] = await title.locator(".ellipsis").evaluateAll((els) =>
        els.map((e) => ({ text: e.textContent, scroll: e.scrollWidth, client: e.clientWidth })),
      );
      assert.equal(name.text, "quarterly-report-2026.md");
      assert.ok(name.scroll <= name.client, `the name is cut: ${name.client}px of ${name.scroll}px shown`);
      assert.ok(path.scroll > path.client, `the path should be the one cut: ${JSON.stringify(path)}`);
    },
  );
});
