import assert from "node:assert/strict";
import { describe } from "node:test";
import { NARROW, NARROW_SMALL, loginThroughUI, previewContent, screenshot, treeItem } from "../lib/browser.mjs";
import { ADMIN_USER } from "../lib/server.mjs";
import { withWorkspace } from "../lib/fixture.mjs";

const ROOT = `kb://users/${ADMIN_USER}/`;

describe(`narrow screen (${NARROW.width}×${NARROW.height})`, { timeout: 120_000 }, () => {
  const ws = withWorkspace({ viewport: NARROW, signIn: false });

  ws.it(
    "shows one panel at a time with a tab bar",
    async ({ page }) => {
      await page.goto("/");
      await screenshot(page, "login-narrow");
      await loginThroughUI(page);
      const tabs = page.getByRole("tablist", { name: "Panels" });
      await tabs.waitFor();
      assert.equal(await page.getByRole("separator").count(), 0, "no resize handles on a narrow screen");
      assert.equal(await page.getByRole("tab", { name: "Files" }).getAttribute("aria-selected"), "true");
      await treeItem(page, `${ROOT}Welcome.md`).waitFor();
      await screenshot(page, "main-narrow");

      // Open a folder, visit another panel, come back: the tree is as it was.
      await treeItem(page, `${ROOT}notes/`).click();
      await treeItem(page, `${ROOT}notes/research-plan.md`).waitFor();
      assert.equal(await page.getByRole("tab", { name: "Files" }).getAttribute("aria-selected"), "true");

      await page.getByRole("tab", { name: "KnowAgent" }).click();
      await page.getByRole("heading", { name: "KnowAgent" }).waitFor();
      assert.equal(await page.getByRole("tree").isVisible(), false);
      await page.getByRole("tab", { name: "Files" }).click();
      await treeItem(page, `${ROOT}notes/research-plan.md`).waitFor();
      assert.equal(await treeItem(page, `${ROOT}notes/`).getAttribute("aria-expanded"), "true");

      await page.getByRole("tab", { name: "Preview" }).click();
      // The folder chosen above is the selection; the preview says so.
      await page.getByText("This is a folder.").waitFor();

      await page.getByRole("tab", { name: "Files" }).click();
      // Choosing a file opens the preview tab.
      await treeItem(page, `${ROOT}Welcome.md`).click();
      await previewContent(page).getByRole("heading", { level: 1, name: "Welcome to Knowspace" }).waitFor();
      assert.equal(await page.getByRole("tab", { name: "Preview" }).getAttribute("aria-selected"), "true");
      await screenshot(page, "preview-narrow");

      // Nothing overflows the viewport horizontally.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `page overflows by ${overflow}px`);
    },
  );

  ws.it(
    "dialogs fit the screen",
    async ({ page }) => {
      await page.getByRole("tab", { name: "Files" }).click();
      await page.getByRole("button", { name: "New folder" }).click();
      const dialog = page.getByRole("dialog", { name: "New folder" });
      for (const size of [NARROW, NARROW_SMALL]) {
        await page.setViewportSize(size);
        const box = await dialog.boundingBox();
        assert.ok(
          box.x >= 0 && box.y >= 0 && box.x + box.width <= size.width && box.y + box.height <= size.height,
          `dialog inside the ${size.width}×${size.height} viewport: ${JSON.stringify(box)}`,
        );
      }
      await page.setViewportSize(NARROW);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
    },
  );

  ws.it(
    "the admin tables keep their buttons within reach: the table scrolls, the page does not cut it",
    async ({ page, api }) => {
      await api("/admin/users", { method: "POST", json: { username: "someone-with-a-long-name", password: "pass-word-123456", role: "user" }, status: 201 });
      await page.goto("/admin");
      const table = page.locator("table.page-table").first();
      await table.locator("tbody tr").nth(1).waitFor();
      const box = await table.boundingBox();
      assert.ok(box.x >= 0 && box.x + box.width <= NARROW.width, `the table inside the ${NARROW.width} px screen: ${JSON.stringify(box)}`);
      for (const button of await table.locator("tbody button").all()) {
        await button.scrollIntoViewIfNeeded();
        const b = await button.boundingBox();
        const t = await table.boundingBox();
        assert.ok(b.x >= t.x - 1 && b.x + b.width <= t.x + t.width + 1, `${await button.innerText()} shown whole: ${JSON.stringify(b)} in ${JSON.stringify(t)}`);
      }
    },
  );
});
