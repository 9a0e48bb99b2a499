import assert from "node:assert/strict";
import { describe } from "node:test";
import { newFolder, previewContent, treeItem } from "../lib/browser.mjs";
import { ADMIN_USER } from "../lib/server.mjs";
import { withWorkspace } from "../lib/fixture.mjs";

const ROOT = `kb://users/${ADMIN_USER}/`;
const MANY = 450;

describe("long files and large folders", { timeout: 180_000 }, () => {
  const ws = withWorkspace({ ready: ({ page }) => treeItem(page, `${ROOT}Welcome.md`).waitFor() });

  async function uploadToRoot(files) {
    // Nothing selected: uploads go to the root.
    await ws.page.getByTestId("upload-input").setInputFiles(files);
  }

  ws.it(
    "pages through a long file by code points",
    async ({ page }) => {
      // 2,500 lines of 6 code points: 15,000 code points, several pages.
      const body = Array.from({ length: 2500 }, (_, i) => `行${String(i).padStart(4, "0")}\n`).join("");
      await uploadToRoot([{ name: "long.txt", mimeType: "text/plain", buffer: Buffer.from(body) }]);
      await treeItem(page, `${ROOT}long.txt`).click();
      const pager = page.getByRole("navigation", { name: "Pages" });
      await pager.getByText("Characters 1–6,000 of 15,000").waitFor();
      await previewContent(page).getByText("行0000").waitFor();
      assert.ok(await pager.getByRole("button", { name: "Previous page" }).isDisabled());

      await pager.getByRole("button", { name: "Next page" }).click();
      await pager.getByText("Characters 6,001–12,000 of 15,000").waitFor();
      await previewContent(page).getByText("行1000").waitFor();
      await pager.getByRole("button", { name: "Next page" }).click();
      await pager.getByText("Characters 12,001–15,000 of 15,000").waitFor();
      await previewContent(page).getByText("行2499").waitFor();
      assert.ok(await pager.getByRole("button", { name: "Next page" }).isDisabled());

      await pager.getByRole("button", { name: "Previous page" }).click();
      await pager.getByText("Characters 6,001–12,000 of 15,000").waitFor();
    },
  );

  ws.it(
    "jumps by page number, first and last; finds in the file across pages; remembers the reading position",
    async ({ page }) => {
      const pager = page.getByRole("navigation", { name: "Pages" });
      const box = pager.getByRole("textbox", { name: /Page number, 1 to 3/ });
      await box.fill("3");
      await box.press("Enter");
      await pager.getByText("Characters 12,001–15,000 of 15,000").waitFor();
      assert.equal(await box.inputValue(), "3");
      await pager.getByRole("button", { name: "First page" }).click();
      await pager.getByText("Characters 1–6,000 of 15,000").waitFor();
      await pager.getByRole("button", { name: "Last page" }).click();
      await pager.getByText("Characters 12,001–15,000 of 15,000").waitFor();
      await box.fill("99"); // beyond the end: the last page
      await box.press("Enter");
      await pager.getByText("Characters 12,001–15,000 of 15,000").waitFor();

      // "400" is in 行0400, 行1400 and 行2400 only: one hit on each page.
      const find = page.getByRole("search", { name: "Find in file" });
      await find.getByRole("textbox", { name: "Find in this file" }).fill("400");
      await find.getByRole("button", { name: "Find", exact: true }).click();
      const count = find.getByTestId("find-count");
      await count.filter({ hasText: /^Hit 1 of/ }).waitFor();
      await pager.getByText("Characters 1–6,000 of 15,000").waitFor();
      assert.ok(Number(await previewContent(page).getAttribute("data-find-hits")) >= 1, "hits are highlighted on the page");
      await find.getByRole("button", { name: "Next hit" }).click();
      await count.filter({ hasText: /^Hit 2 of/ }).waitFor();
      await find.getByRole("button", { name: "Next hit" }).click();
      await count.filter({ hasText: /^Hit 3 of 3 \(whole file searched\)$/ }).waitFor();
      await pager.getByText("Characters 12,001–15,000 of 15,000").waitFor();
      await find.getByRole("button", { name: "Previous hit" }).click();
      await count.filter({ hasText: /^Hit 2 of 3/ }).waitFor();
      await pager.getByText("Characters 6,001–12,000 of 15,000").waitFor();
      // More hits in one file than one answer holds (100 against 40): the
      // count says it is a lower bound and that more remain to search.
      await find.getByRole("textbox", { name: "Find in this file" }).fill("行00");
      await find.getByRole("button", { name: "Find", exact: true }).click();
      await count.filter({ hasText: /^Hit 1 of 40\+ \(more to search\)$/ }).waitFor();
      await find.getByRole("button", { name: "Close find" }).click();
      await pager.getByText("Characters 1–6,000 of 15,000").waitFor(); // hit 1 of "行00" is on page 1
      await pager.getByRole("button", { name: "Next page" }).click();
      await pager.getByText("Characters 6,001–12,000 of 15,000").waitFor();

      // Away and back: the file opens on the page it was read at.
      await treeItem(page, `${ROOT}Welcome.md`).click();
      await previewContent(page).getByRole("heading").first().waitFor();
      await treeItem(page, `${ROOT}long.txt`).click();
      await pager.getByText("Characters 6,001–12,000 of 15,000").waitFor();
    },
  );

  ws.it(
    "says when a file is empty",
    async ({ page }) => {
      await page.keyboard.press("Escape");
      await treeItem(page, `${ROOT}Welcome.md`).click();
      await uploadToRoot([{ name: "blank.txt", mimeType: "text/plain", buffer: Buffer.alloc(0) }]);
      await treeItem(page, `${ROOT}blank.txt`).click();
      await page.getByTestId("preview-empty").getByText("This file is empty.").waitFor();
    },
  );

  ws.it(
    "says when a document's text could not be extracted, and why",
    async ({ page }) => {
      // Not a real PDF: the extraction after its upload can only fail, so
      // the preview moves from "extracting" to the failure and its reason.
      await uploadToRoot([{ name: "scan.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4 not really") }]);
      await treeItem(page, `${ROOT}scan.pdf`).click();
      const failed = page.getByTestId("preview-text-failed");
      await failed.getByText("The text of this file could not be extracted.").waitFor({ timeout: 30_000 });
      await failed.getByText(/extracting the text of this file failed: \S/).waitFor();
      await page.getByRole("button", { name: "Download" }).waitFor();
    },
  );

  ws.it(
    `loads a folder of ${MANY} files page by page and keeps the DOM small`,
    async ({ page }) => {
      // A file is selected, so the folder is created beside it, in the root.
      await newFolder(page, "many");
      const folder = treeItem(page, `${ROOT}many/`);
      await folder.waitFor();
      await folder.click(); // select and open
      const files = Array.from({ length: MANY }, (_, i) => ({
        name: `item-${String(i).padStart(4, "0")}.txt`,
        mimeType: "text/plain",
        buffer: Buffer.from(`item ${i}\n`),
      }));
      await ws.page.getByTestId("upload-input").setInputFiles(files);
      await treeItem(page, `${ROOT}many/item-0000.txt`).waitFor({ timeout: 30_000 });

      const rendered = await page.locator('[role="treeitem"]').count();
      assert.ok(rendered < 120, `virtualized: ${rendered} rows in the DOM`);

      // Scrolling to the end fetches the remaining pages, each by the
      // previous page's cursor, never by a numeric offset.
      const listings = [];
      const record = (req) => {
        const u = new URL(req.url());
        if (u.pathname === "/api/v1/resources" && u.searchParams.get("uri") === `${ROOT}many/`) listings.push(u.searchParams);
      };
      page.on("request", record);
      const last = treeItem(page, `${ROOT}many/item-${String(MANY - 1).padStart(4, "0")}.txt`);
      for (let i = 0; i < 20 && (await last.count()) === 0; i++) {
        await page.getByRole("tree", { name: "Files" }).evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
        await page.waitForTimeout(250);
      }
      await last.waitFor();
      page.off("request", record);
      assert.ok(listings.length >= 2, `pages fetched while scrolling: ${listings.length}`);
      for (const q of listings) {
        assert.equal(q.get("offset"), null, `a page asked by offset: ${q}`);
        assert.ok(q.get("cursor"), `a page after the first without a cursor: ${q}`);
      }
      await last.click();
      await previewContent(page).getByText(`item ${MANY - 1}`).waitFor();
    },
  );
});
