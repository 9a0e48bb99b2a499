import assert from "node:assert/strict";
import { describe } from "node:test";
import { newFolder, previewContent, treeItem } from "../lib/browser.mjs";
import { ADMIN_USER } from "../lib/server.mjs";
import { withWorkspace } from "../lib/fixture.mjs";

const ROOT = `kb://users/${ADMIN_USER}/`;

describe("manage files", { timeout: 120_000 }, () => {
  const ws = withWorkspace({ ready: ({ page }) => treeItem(page, `${ROOT}Welcome.md`).waitFor() });

  async function listNames(uri) {
    const list = await ws.api(`/resources?uri=${encodeURIComponent(uri)}&offset=0&limit=500`, { status: 200 });
    return list.items.map((n) => n.name);
  }

  ws.it(
    "creates a folder at the root",
    async ({ page }) => {
      // With nothing selected the new folder goes to the root.
      const dialog = await newFolder(page, "projects");
      await treeItem(page, `${ROOT}projects/`).waitFor();
      assert.equal(await dialog.count(), 0);
      assert.ok((await listNames(ROOT)).includes("projects"));
    },
  );

  ws.it(
    "refuses an invalid folder name before calling the server",
    async ({ page }) => {
      const dialog = await newFolder(page, "a/b");
      await dialog.getByRole("alert").waitFor();
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
    },
  );

  ws.it(
    "uploads a file into the selected folder with the button",
    async ({ page }) => {
      await treeItem(page, `${ROOT}projects/`).click();
      await page.getByTestId("upload-input").setInputFiles([
        { name: "plan.md", mimeType: "text/markdown", buffer: Buffer.from("# Uploaded plan\n\nSome text.\n") },
        { name: "笔记.txt", mimeType: "text/plain", buffer: Buffer.from("中文笔记内容\n") },
      ]);
      await treeItem(page, `${ROOT}projects/plan.md`).waitFor();
      await treeItem(page, `${ROOT}projects/笔记.txt`).waitFor();
      await treeItem(page, `${ROOT}projects/plan.md`).click();
      await previewContent(page).getByRole("heading", { name: "Uploaded plan" }).waitFor();
      await treeItem(page, `${ROOT}projects/笔记.txt`).click();
      await previewContent(page).getByText("中文笔记内容").waitFor();
    },
  );

  ws.it(
    "uploads by dropping a file on a folder",
    async ({ page }) => {
      const target = treeItem(page, `${ROOT}notes/`);
      await target.waitFor();
      const dataTransfer = await page.evaluateHandle(() => {
        const dt = new DataTransfer();
        dt.items.add(new File(["dropped body\n"], "dropped.txt", { type: "text/plain" }));
        return dt;
      });
      await target.dispatchEvent("dragenter", { dataTransfer });
      await target.dispatchEvent("dragover", { dataTransfer });
      await target.dispatchEvent("drop", { dataTransfer });
      await treeItem(page, `${ROOT}notes/dropped.txt`).waitFor();
      assert.ok((await listNames(`${ROOT}notes/`)).includes("dropped.txt"));
    },
  );

  ws.it(
    "renames a file",
    async ({ page }) => {
      await treeItem(page, `${ROOT}projects/plan.md`).click();
      await page.getByRole("button", { name: "Rename" }).click();
      const dialog = page.getByRole("dialog", { name: "Rename" });
      const input = dialog.getByRole("textbox");
      assert.equal(await input.inputValue(), "plan.md");
      await input.fill("roadmap.md");
      await dialog.getByRole("button", { name: "Rename" }).click();
      await treeItem(page, `${ROOT}projects/roadmap.md`).waitFor();
      assert.equal(await treeItem(page, `${ROOT}projects/plan.md`).count(), 0);
      // The preview follows the renamed file.
      await previewContent(page).getByRole("heading", { name: "Uploaded plan" }).waitFor();
      const names = await listNames(`${ROOT}projects/`);
      assert.ok(names.includes("roadmap.md") && !names.includes("plan.md"), names.join(","));
    },
  );

  ws.it(
    "renames a folder",
    async ({ page }) => {
      await treeItem(page, `${ROOT}projects/`).click();
      await page.keyboard.press("F2");
      const dialog = page.getByRole("dialog", { name: "Rename" });
      await dialog.getByRole("textbox").fill("projects-2026");
      await dialog.getByRole("button", { name: "Rename" }).click();
      await treeItem(page, `${ROOT}projects-2026/`).waitFor();
      assert.equal(await treeItem(page, `${ROOT}projects/`).count(), 0);
    },
  );

  ws.it(
    "deletes a file after confirmation, and cancel keeps it",
    async ({ page }) => {
      const uri = `${ROOT}notes/dropped.txt`;
      await treeItem(page, uri).click();
      await page.getByRole("button", { name: "Delete" }).click();
      let dialog = page.getByRole("dialog", { name: "Delete" });
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "detached" });
      assert.equal(await treeItem(page, uri).count(), 1);

      await page.getByRole("button", { name: "Delete" }).click();
      dialog = page.getByRole("dialog", { name: "Delete" });
      await dialog.getByText("dropped.txt").waitFor();
      await dialog.getByRole("button", { name: "Delete" }).click();
      await treeItem(page, uri).waitFor({ state: "detached" });
      assert.ok(!(await listNames(`${ROOT}notes/`)).includes("dropped.txt"));
    },
  );

  ws.it(
    "deletes a folder with its contents",
    async ({ page }) => {
      await treeItem(page, `${ROOT}projects-2026/`).click();
      await page.getByRole("button", { name: "Delete" }).click();
      const dialog = page.getByRole("dialog", { name: "Delete" });
      await dialog.getByRole("button", { name: "Delete" }).click();
      await treeItem(page, `${ROOT}projects-2026/`).waitFor({ state: "detached" });
      assert.ok(!(await listNames(ROOT)).includes("projects-2026"));
    },
  );

  ws.it(
    "refresh picks up changes made elsewhere",
    async ({ page }) => {
      await ws.api("/resources/folders", { method: "POST", json: { uri: `${ROOT}from-script/` } });
      await page.getByRole("button", { name: "Refresh" }).click();
      await treeItem(page, `${ROOT}from-script/`).waitFor();
    },
  );
});
