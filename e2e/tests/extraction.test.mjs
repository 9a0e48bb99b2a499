// An uploaded PDF becomes readable and searchable with no model and no
// compile: the tree shows it extracting, then its text; a search by the
// chat quotes it. While its text is not there yet, the search tool's card
// says the file is pending rather than that nothing mentions the phrase.

import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe } from "node:test";
import { askAndWait } from "../lib/agent.mjs";
import { previewContent, treeItem } from "../lib/browser.mjs";
import { FAKE_LLM, withWorkspace } from "../lib/fixture.mjs";
import { ADMIN_USER, E2E_DIR } from "../lib/server.mjs";

const ROOT = `kb://users/${ADMIN_USER}/`;
const PDF = path.join(E2E_DIR, "..", "internal", "extract", "testdata", "pdf", "pdftex-article.pdf");
const PHRASE = "Most notes are written once";

describe("a document waiting for its text", { timeout: 180_000 }, () => {
  // No extraction worker on this server: the PDF stays pending.
  const ws = withWorkspace({
    env: { ...FAKE_LLM, KB_EXTRACT_WORKERS: "0" },
    seed: async ({ api }) => api.upload(ROOT, { "article.pdf": new Uint8Array(await readFile(PDF)) }),
  });

  ws.it(
    "shows Extracting… in the tree and the preview, and the search card says it is pending",
    async ({ page }) => {
      const row = treeItem(page, `${ROOT}article.pdf`);
      await row.locator('[data-text-state="pending"]').getByText("Extracting…").waitFor();
      await row.click();
      await page.getByTestId("preview-extracting").getByText("Extracting the text of this file…").waitFor();
      const { msg } = await askAndWait(page, `find "${PHRASE}"`);
      const card = msg.locator('.tool-card[data-tool="search"]');
      assert.match(await card.locator(".tool-summary").innerText(), /1 file\(s\) pending text extraction, not searched/);
      assert.match(await msg.innerText(), /did not cover every file/);
    },
  );
});

describe("a document uploaded through the web app", { timeout: 180_000 }, () => {
  const ws = withWorkspace({ env: FAKE_LLM });

  ws.it(
    "gets its text by itself, and the chat's search quotes it",
    async ({ page }) => {
      await treeItem(page, `${ROOT}Welcome.md`).click();
      await page.getByTestId("upload-input").setInputFiles([{ name: "article.pdf", mimeType: "application/pdf", buffer: await readFile(PDF) }]);
      const row = treeItem(page, `${ROOT}article.pdf`);
      await row.waitFor();
      // The badge goes once the text is there (the folder is listed again).
      await row.locator("[data-text-state]").waitFor({ state: "detached", timeout: 60_000 });
      await row.click();
      await previewContent(page).getByText(/Most notes are written once/).waitFor({ timeout: 30_000 });
      const { msg } = await askAndWait(page, `find "${PHRASE}"`);
      assert.match(await msg.innerText(), /Most notes are written once/);
      assert.doesNotMatch(await msg.innerText(), /did not cover every file/);
    },
  );
});
