// Upload conflicts, the trash and file versions through the web app: a taken
// name asks Replace / Keep both / Cancel, a deleted file comes back from the
// trash with its content, and an older version can be made current again.

import assert from "node:assert/strict";
import { describe } from "node:test";
import { previewContent, screenshot, treeItem } from "../lib/browser.mjs";
import { ADMIN_USER } from "../lib/server.mjs";
import { withWorkspace } from "../lib/fixture.mjs";

const ROOT = `kb://users/${ADMIN_USER}/`;

describe("upload conflicts, trash and versions", { timeout: 180_000 }, () => {
  const ws = withWorkspace({ ready: ({ page }) => treeItem(page, `${ROOT}Welcome.md`).waitFor() });

  const api = (path, init) => ws.api(path, init);
  const names = async (uri) => (await api(`/resources?uri=${encodeURIComponent(uri)}&limit=500`)).items.map((n) => n.name);
  const text = (name, body) => ({ name, mimeType: "text/plain", buffer: Buffer.from(body) });
  const conflictDialog = () => ws.page.getByRole("dialog", { name: "File already exists" });

  // With nothing selected an upload goes to the root; click a root file first
  // so the selection's folder is the root either way.
  async function uploadToRoot(files) {
    await treeItem(ws.page, `${ROOT}Welcome.md`).click();
    await ws.page.getByTestId("upload-input").setInputFiles(files);
  }

  ws.it(
    "asks about a taken name: Cancel keeps the file, Keep both renames, Replace makes a version",
    async ({ page }) => {
      await uploadToRoot([text("draft.txt", "first draft\n")]);
      await treeItem(page, `${ROOT}draft.txt`).waitFor();

      // Cancel: nothing changes and the row says Cancelled, not Failed.
      await uploadToRoot([text("draft.txt", "should not land\n")]);
      let dialog = conflictDialog();
      await dialog.getByText("draft.txt").first().waitFor();
      await screenshot(page, "upload-conflict-wide");
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "detached" });
      const row = page.locator(".upload", { hasText: "draft.txt" }).last();
      await row.locator(".upload-status", { hasText: "Cancelled" }).waitFor();
      assert.equal(await row.getAttribute("data-state"), "cancelled");
      assert.equal(await row.locator(".error").count(), 0);
      await treeItem(page, `${ROOT}draft.txt`).click();
      await previewContent(page).getByText("first draft").waitFor();

      // Keep both, for a drop of two taken names and a new one, applied to all.
      await uploadToRoot([text("draft.txt", "second copy\n"), text("fresh.txt", "new\n"), text("Welcome.md", "# other welcome\n")]);
      dialog = conflictDialog();
      await dialog.getByRole("checkbox", { name: /Apply to all/ }).check();
      await dialog.getByRole("button", { name: "Keep both" }).click();
      await dialog.waitFor({ state: "detached" });
      await treeItem(page, `${ROOT}fresh.txt`).waitFor();
      await treeItem(page, `${ROOT}draft (2).txt`).waitFor();
      await treeItem(page, `${ROOT}Welcome (2).md`).waitFor();
      assert.equal(await conflictDialog().count(), 0, "apply to all asks only once");
      const root = await names(ROOT);
      assert.ok(root.includes("draft.txt") && root.includes("draft (2).txt"), root.join(","));

      // Replace: the open preview shows the new content.
      await treeItem(page, `${ROOT}draft.txt`).click();
      await page.getByTestId("upload-input").setInputFiles([text("draft.txt", "replaced draft\n")]);
      await conflictDialog().getByRole("button", { name: "Replace" }).click();
      await previewContent(page).getByText("replaced draft").waitFor();
      const versions = await api(`/resources/versions?uri=${encodeURIComponent(`${ROOT}draft.txt`)}`);
      assert.equal(versions.items.length, 2);
    },
  );

  ws.it(
    "an upload the user stops shows Cancelled, not Failed",
    async ({ page }) => {
      // Hold the request so there is time to press the row's cancel button,
      // and press it only once the request is held: on a loaded machine a
      // click can come before the request leaves, which stops it unsent.
      let held = 0;
      let reached;
      const inFlight = new Promise((resolve) => (reached = resolve));
      await page.route("**/api/v1/resources/upload**", () => {
        held++;
        reached();
      });
      try {
        await uploadToRoot([text("stopped.txt", "never stored\n")]);
        const row = page.locator(".upload", { hasText: "stopped.txt" });
        await inFlight;
        await row.getByRole("button", { name: "Cancel upload of stopped.txt" }).click();
        await row.locator(".upload-status", { hasText: "Cancelled" }).waitFor();
        assert.equal(await row.getAttribute("data-state"), "cancelled");
        assert.equal(await row.locator(".error").count(), 0);
        assert.equal(held, 1);
        await row.getByRole("button", { name: "Dismiss stopped.txt" }).click();
        await row.waitFor({ state: "detached" });
      } finally {
        await page.unroute("**/api/v1/resources/upload**");
      }
      assert.ok(!(await names(ROOT)).includes("stopped.txt"));
    },
  );

  ws.it(
    "a deleted file waits in the trash and comes back with its content",
    async ({ page }) => {
      const uri = `${ROOT}notes/research-plan.md`;
      await treeItem(page, `${ROOT}notes/`).click();
      await treeItem(page, uri).waitFor();
      await treeItem(page, uri).click();
      await page.getByRole("button", { name: "Delete" }).click();
      const confirm = page.getByRole("dialog", { name: "Delete" });
      await confirm.getByText(/goes to the trash/).waitFor();
      await confirm.getByRole("button", { name: "Delete" }).click();
      await treeItem(page, uri).waitFor({ state: "detached" });

      await page.getByRole("button", { name: "Trash" }).click();
      const trash = page.getByRole("dialog", { name: "Trash" });
      const entry = trash.locator(`tr[data-trash-uri="${uri}"]`);
      await entry.waitFor();
      assert.match(await entry.innerText(), /research-plan\.md/);
      assert.match(await entry.locator(".trash-place").innerText(), /^notes\/$/);
      assert.notEqual((await entry.locator("time").innerText()).trim(), "");
      await screenshot(page, "trash-wide");
      await entry.getByRole("button", { name: "Restore research-plan.md" }).click();
      await entry.waitFor({ state: "detached" });
      await trash.getByRole("status").getByText("Restored research-plan.md.").waitFor();
      await trash.getByRole("button", { name: "Close" }).click();
      await trash.waitFor({ state: "detached" });

      await treeItem(page, uri).click();
      await previewContent(page).getByRole("heading", { name: /^Research plan/ }).first().waitFor();
      assert.ok((await names(`${ROOT}notes/`)).includes("research-plan.md"));
    },
  );

  ws.it(
    "delete forever and empty trash ask first and remove for good",
    async ({ page }) => {
      for (const name of ["fresh.txt", "Welcome (2).md"]) {
        await api(`/resources?uri=${encodeURIComponent(ROOT + name)}`, { method: "DELETE" });
      }
      await page.getByRole("button", { name: "Trash" }).click();
      const trash = page.getByRole("dialog", { name: "Trash" });
      await trash.getByRole("button", { name: "Delete fresh.txt forever" }).click();
      const confirm = page.getByRole("dialog", { name: "Delete forever" });
      await confirm.getByRole("button", { name: "Delete forever" }).click();
      await trash.locator(`tr[data-trash-uri="${ROOT}fresh.txt"]`).waitFor({ state: "detached" });
      assert.deepEqual((await api("/trash")).items.map((i) => i.name), ["Welcome (2).md"]);

      await trash.getByRole("button", { name: "Empty trash" }).click();
      await page.getByRole("dialog", { name: "Empty trash" }).getByRole("button", { name: "Empty trash" }).click();
      await trash.getByText("The trash is empty.").waitFor();
      assert.deepEqual((await api("/trash")).items, []);
      await page.keyboard.press("Escape");
      await trash.waitFor({ state: "detached" });
    },
  );

  ws.it(
    "restores the first version of a replaced file",
    async ({ page }) => {
      const uri = `${ROOT}notes/versioned.txt`;
      await treeItem(page, `${ROOT}notes/`).click();
      await page.getByTestId("upload-input").setInputFiles([text("versioned.txt", "version one body\n")]);
      await treeItem(page, uri).waitFor();
      await treeItem(page, uri).click();
      await previewContent(page).getByText("version one body").waitFor();
      await page.getByTestId("upload-input").setInputFiles([text("versioned.txt", "version two, longer body\n")]);
      await conflictDialog().getByRole("button", { name: "Replace" }).click();
      await previewContent(page).getByText("version two, longer body").waitFor();

      await page.getByRole("button", { name: "Versions" }).click();
      const dialog = page.getByRole("dialog", { name: "Versions of versioned.txt" });
      const rows = dialog.locator(".version-row");
      await rows.nth(1).waitFor();
      assert.equal(await rows.count(), 2);
      assert.equal(await rows.nth(0).getAttribute("data-current"), "true");
      assert.match(await rows.nth(1).innerText(), /v1[\s\S]*17 B[\s\S]*admin/);
      await screenshot(page, "versions-wide");
      await dialog.getByRole("button", { name: "Restore version 1" }).click();
      await dialog.getByRole("status").waitFor();
      await rows.nth(2).waitFor();
      assert.equal(await rows.nth(0).getAttribute("data-current"), "true");
      await dialog.getByRole("button", { name: "Close" }).click();
      await previewContent(page).getByText("version one body").waitFor();
      const raw = await api(`/resources/content?uri=${encodeURIComponent(uri)}`);
      assert.equal(raw.text, "version one body\n");
    },
  );
});
