import assert from "node:assert/strict";
import { describe } from "node:test";
import { NARROW, loginThroughUI, previewContent, screenshot, treeItem } from "../lib/browser.mjs";
import { ADMIN_USER } from "../lib/server.mjs";
import { answerText, ask, askAndWait, assistants, chatBox, lastAssistant, recordStreams, users } from "../lib/agent.mjs";
import { FAKE_LLM, withWorkspace } from "../lib/fixture.mjs";

const ROOT = `kb://users/${ADMIN_USER}/`;
const BULK = `${ROOT}bulk/`;
const FILES = 60;

describe("KnowAgent commands, no-randomUUID page and narrow screen", { timeout: 180_000 }, () => {
  const ws = withWorkspace({
    env: FAKE_LLM,
    seed: async ({ api }) => {
      await api.mkdir(BULK);
      const files = {};
      for (let i = 0; i < FILES; i++) {
        const n = String(i).padStart(2, "0");
        files[`file-${n}.md`] = `# File ${n}\n\nThis note mentions the needle word in file ${n}.\n`;
      }
      await api.upload(BULK, files);
    },
  });

  ws.it(
    "/ls opens the folder dialog: browse with paging, read a page, search with a cursor",
    async ({ page }) => {
      await treeItem(page, BULK).click();
      await page.locator(".scope-prefix", { hasText: /^bulk\/$/ }).waitFor();
      const streams = recordStreams(page);
      await ask(page, "/ls");
      const dialog = page.getByRole("dialog");
      await dialog.waitFor();
      const list = dialog.getByRole("list", { name: "Folder contents" });
      await list.getByRole("button", { name: /file-00\.md/ }).waitFor();
      assert.equal(await list.getByRole("listitem").count(), 50);
      await dialog.getByRole("button", { name: "Next" }).click();
      await list.getByRole("button", { name: /file-59\.md/ }).waitFor();
      assert.equal(await list.getByRole("listitem").count(), FILES - 50);
      assert.ok(await dialog.getByRole("button", { name: "Next" }).isDisabled());
      await dialog.getByRole("button", { name: "Previous" }).click();
      await list.getByRole("button", { name: /file-00\.md/ }).waitFor();

      // Read a file from the listing.
      await list.getByRole("button", { name: /file-03\.md/ }).click();
      const read = dialog.getByTestId("read-pane");
      await read.getByText("This note mentions the needle word in file 03.").waitFor();

      // Search: 40 files a page, so the first page says more is available.
      await dialog.getByRole("tab", { name: "search" }).click();
      await dialog.getByLabel("Search text").fill("needle");
      await dialog.getByRole("button", { name: "Search" }).click();
      const status = dialog.getByTestId("search-status");
      await status.waitFor();
      assert.match(await status.innerText(), /Scanned \d+ files, more available/);
      const firstHits = await dialog.getByRole("list", { name: "Search hits" }).getByRole("listitem").count();
      assert.ok(firstHits > 0);
      await dialog.getByRole("button", { name: "Next" }).click();
      await status.filter({ hasText: /page 2/ }).waitFor();
      assert.match(await status.innerText(), /search complete/);
      await screenshot(page, "agent-folder-dialog-wide");

      // A hit opens in the reader; the reader opens the preview at that offset.
      await dialog.getByRole("list", { name: "Search hits" }).getByRole("button").first().click();
      await read.waitFor();
      await read.getByRole("button", { name: "Open in preview" }).click();
      await dialog.waitFor({ state: "detached" });
      await previewContent(page).getByText(/needle word/).waitFor();
      assert.equal(streams.length, 0, "commands never reach the model");
      // The chat's folder did not change by opening the preview.
      assert.equal(await page.locator(".scope-prefix").innerText(), "bulk/");
    },
  );

  ws.it(
    "clicking the URI prefix opens the folder dialog",
    async ({ page }) => {
      await page.locator(".scope-prefix").click();
      const dialog = page.getByRole("dialog");
      await dialog.waitFor();
      assert.match(await dialog.getAttribute("aria-label"), /Folder commands — bulk\//);
      await dialog.getByRole("button", { name: "Close" }).click();
      await dialog.waitFor({ state: "detached" });
    },
  );

  ws.it(
    "a read card links to the preview without changing the chat's folder",
    async ({ page }) => {
      await treeItem(page, BULK).click(); // collapse the 60 files so notes/ is in view
      await treeItem(page, `${ROOT}notes/`).click();
      await page.locator(".scope-prefix", { hasText: /^notes\/$/ }).waitFor();
      const { msg } = await askAndWait(page, "use read on kb://me/notes/research-plan.md");
      const card = msg.locator('.tool-card[data-tool="read"]');
      assert.equal(await card.getAttribute("data-status"), "ok");
      await card.locator("summary").click();
      await card.getByRole("button", { name: /Open page in preview/ }).click();
      await previewContent(page).getByRole("heading").first().waitFor();
      assert.equal(await page.locator(".preview .panel-title .ellipsis").first().innerText(), "research-plan.md");
      assert.equal(await assistants(page).count(), 1, "the chat is kept");
      // Opened from the card while its folder is collapsed: the tree reveals
      // and selects it.
      await treeItem(page, `${ROOT}notes/`).click();
      assert.equal(await treeItem(page, `${ROOT}notes/research-plan.md`).count(), 0, "notes/ is collapsed");
      await card.getByRole("button", { name: /Open page in preview/ }).click();
      const row = treeItem(page, `${ROOT}notes/research-plan.md`);
      await row.waitFor();
      assert.equal(await row.getAttribute("aria-selected"), "true");
    },
  );

  ws.it(
    "sends messages on a page without crypto.randomUUID (plain-HTTP LAN)",
    async () => {
      const ctxPage = await ws.open({ signIn: false });
      await ctxPage.context().addInitScript(() => {
        try {
          Object.defineProperty(Crypto.prototype, "randomUUID", { value: undefined, configurable: true });
        } catch {
          /* ignore */
        }
        delete Crypto.prototype.randomUUID;
      });
      await loginThroughUI(ctxPage);
      assert.equal(await ctxPage.evaluate(() => typeof crypto.randomUUID), "undefined");
      const streams = recordStreams(ctxPage);
      await askAndWait(ctxPage, "first without uuid");
      await askAndWait(ctxPage, "use ls on kb://me/notes/ without uuid");
      await askAndWait(ctxPage, "[[truncate]] failing without uuid", ["error"]);
      assert.equal(await users(ctxPage).count(), 3);
      const ids = await ctxPage.locator(".msg[data-id]").evaluateAll((els) => els.map((e) => e.getAttribute("data-id")));
      assert.equal(new Set(ids).size, ids.length, "ids are unique");
      assert.ok(ids.every((id) => id.startsWith("m-")), ids.join());
      assert.equal(streams.at(1).history.length, 2);
      assert.deepEqual(ctxPage.consoleErrors.filter((e) => /randomUUID/.test(e)), []);
      await ctxPage.context().close();
    },
  );

  ws.it(
    `is usable on a ${NARROW.width}×${NARROW.height} screen, dialogs included`,
    async () => {
      const page = await ws.open({ viewport: NARROW });
      await page.getByRole("tab", { name: "KnowAgent" }).click();
      const box = chatBox(page);
      await box.waitFor();
      const { msg } = await askAndWait(page, "use ls on kb://me/notes/ from a phone");
      await msg.locator(".tool-card").waitFor();
      const inView = await box.boundingBox();
      assert.ok(
        inView && inView.y + inView.height <= NARROW.height && inView.x >= 0 && inView.x + inView.width <= NARROW.width,
        JSON.stringify(inView),
      );
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.equal(overflow, 0, "no horizontal scroll");
      const chatOverflow = await page.locator(".chat-scroll").evaluate((el) => el.scrollWidth - el.clientWidth);
      assert.ok(chatOverflow <= 0, `chat does not scroll sideways (${chatOverflow})`);
      await ask(page, "[[slow]] stop me on a phone please, this is long enough");
      await lastAssistant(page).locator(".answer").waitFor();
      await page.getByRole("button", { name: "Stop" }).click();
      await page.locator('.msg[data-status="stopped"]').waitFor();
      await screenshot(page, "agent-narrow");
      // Each dialog of the chat fits the screen and scrolls inside itself.
      const fits = async (name) => {
        const dialog = page.getByRole("dialog");
        await dialog.waitFor();
        const b = await dialog.boundingBox();
        assert.ok(
          b.x >= 0 && b.y >= 0 && b.x + b.width <= NARROW.width && b.y + b.height <= NARROW.height,
          `${name} fits the ${NARROW.width}×${NARROW.height} screen: ${JSON.stringify(b)}`,
        );
        const sideways = await dialog.evaluate((el) => el.scrollWidth - el.clientWidth);
        assert.ok(sideways <= 0, `${name} does not scroll sideways (${sideways})`);
        return dialog;
      };
      await ask(page, "/ls");
      await fits("the folder dialog");
      await screenshot(page, "agent-folder-dialog-narrow");
      await page.keyboard.press("Escape");
      await page.getByRole("dialog").waitFor({ state: "detached" });
      await ask(page, "compile");
      const compile = await fits("the compile form");
      await compile.getByRole("button", { name: /^Compile/ }).last().scrollIntoViewIfNeeded();
      await screenshot(page, "agent-compile-form-narrow");
      await page.keyboard.press("Escape");
      await page.getByRole("dialog").waitFor({ state: "detached" });
      await page.getByRole("button", { name: "Task center" }).click();
      await fits("the task center");
      await screenshot(page, "agent-task-center-narrow");
      await page.keyboard.press("Escape");
      await page.getByRole("dialog").waitFor({ state: "detached" });
      assert.ok((await answerText(assistants(page).first())).startsWith("Tool result:"));
    },
  );
});
