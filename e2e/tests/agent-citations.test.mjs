// Answers that cite and open their sources, and the actions on an answer
// (issue 14, the parts that need no stored conversations).
import assert from "node:assert/strict";
import { describe } from "node:test";
import { previewContent, treeItem } from "../lib/browser.mjs";
import { ADMIN_USER } from "../lib/server.mjs";
import { axeViolations, blocking, formatViolations } from "../lib/axe.mjs";
import { answerText, ask, askAndWait, assistants, chatBox, recordStreams, users, waitStatus } from "../lib/agent.mjs";
import { FAKE_LLM, withWorkspace } from "../lib/fixture.mjs";

const ROOT = `kb://users/${ADMIN_USER}/`;
const FILE = `${ROOT}deep/inner/lines.txt`;
const LINES = ["alpha first line", "beta second line", "gamma cited line", "delta fourth line", "epsilon last line"].join("\n") + "\n";

describe("KnowAgent citations and answer actions", { timeout: 180_000 }, () => {
  let streams;
  const ws = withWorkspace({
    env: FAKE_LLM,
    seed: async ({ api }) => {
      await api.mkdir(`${ROOT}deep/`);
      await api.mkdir(`${ROOT}deep/inner/`);
      await api.upload(`${ROOT}deep/inner/`, { "lines.txt": LINES });
    },
    onPage: (p) => {
      streams = recordStreams(p);
    },
    ready: ({ page }) => chatBox(page).waitFor(),
  });

  ws.it(
    "a kb:// link in an answer opens the preview at the cited line and selects the file in the tree; Sources lists what was read",
    async ({ page }) => {
      // The fake echoes the question after the tool result, so the answer cites both URIs.
      const { msg, status } = await askAndWait(page, "use read on kb://me/deep/inner/lines.txt and cite kb://me/deep/inner/lines.txt#L3 please");
      assert.equal(status, "done");
      assert.equal(await treeItem(page, FILE).count(), 0, "the file's folders start collapsed");
      const link = msg.locator(`.answer a.kb-link[data-kb-uri="${FILE}"][data-kb-line="3"]`);
      await link.click();
      await previewContent(page).getByText("gamma cited line").waitFor();
      const shown = await previewContent(page).innerText();
      assert.doesNotMatch(shown, /alpha first line/, "the preview opens at the cited line, not the file's start");
      assert.equal(await treeItem(page, FILE).getAttribute("aria-selected"), "true");
      // The chat stays as it was.
      assert.equal(await assistants(page).count(), 1);
      assert.equal(await msg.getAttribute("data-status"), "done");

      // Sources: collapsed, lists exactly the file the read tool read.
      const sources = msg.getByTestId("sources");
      assert.equal(await sources.evaluate((d) => d.open), false);
      await sources.locator("summary").click();
      const items = sources.locator("button.source-open");
      assert.deepEqual(await items.evaluateAll((bs) => bs.map((b) => b.dataset.kbUri)), [FILE]);
      // The source opens where the tool read it: the file's start.
      await items.first().click();
      assert.equal(await treeItem(page, FILE).getAttribute("aria-selected"), "true");
      await previewContent(page).getByText("alpha first line").waitFor();
    },
  );

  ws.it(
    "a URI outside the chat's folder is plain text",
    async ({ page }) => {
      // Pick the subfolder: the chat's folder becomes kb://me/deep/inner/.
      await treeItem(page, `${ROOT}deep/inner/`).click();
      assert.equal(await page.locator(".scope-prefix").innerText(), "deep/inner/");
      const { msg } = await askAndWait(page, "compare kb://me/notes/research-plan.md with kb://me/deep/inner/lines.txt#L2");
      assert.equal(await msg.locator("a.kb-link").count(), 1);
      assert.equal(await msg.locator("a.kb-link").getAttribute("data-kb-uri"), FILE);
      assert.match(await msg.locator(".kb-cite-plain").innerText(), /kb:\/\/me\/notes\/research-plan\.md/);
    },
  );

  ws.it(
    "Retry after Stop produces a complete answer; Copy and Edit act on the last turn",
    async ({ page }) => {
      await page.getByRole("button", { name: "New conversation" }).click();
      const q = "[[slow]] this answer is stopped early and then retried until it is whole";
      await ask(page, q);
      const msg = assistants(page).nth(0);
      await msg.locator(".answer").waitFor();
      await page.getByRole("button", { name: "Stop" }).click();
      assert.equal(await waitStatus(msg, ["stopped", "done"]), "stopped");
      const retry = msg.getByRole("button", { name: "Retry" });
      assert.match(await retry.getAttribute("class"), /primary/, "Retry is the main action of a stopped turn");
      streams.length = 0;
      await retry.click();
      // The server answers the stored question again; the stopped answer
      // becomes an earlier version, so the new answer takes its place.
      await page.waitForFunction(() => document.querySelectorAll('.msg[data-role="assistant"][data-status="streaming"]').length === 1);
      const again = assistants(page).last();
      assert.equal(await waitStatus(again, ["done", "stopped", "error", "incomplete"], 30_000), "done");
      assert.equal(await answerText(again), q);
      assert.equal(await assistants(page).count(), 1);
      assert.equal(typeof streams[0].conversation_id, "number");
      assert.equal(typeof streams[0].regenerate, "number");
      assert.equal(streams[0].message, "");

      // Edit: the last question goes back into the box; sending replaces that turn.
      await users(page).last().getByRole("button", { name: "Edit your last message" }).click();
      assert.equal(await chatBox(page).inputValue(), q);
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Message KnowAgent");
      await chatBox(page).fill("the edited question");
      await chatBox(page).press("Enter");
      await page.waitForFunction(() => document.querySelector('.msg[data-role="user"]:last-of-type')?.textContent?.includes("the edited question") ?? true);
      const edited = assistants(page).last();
      assert.equal(await waitStatus(edited, ["done", "stopped", "error", "incomplete"]), "done");
      assert.equal(await assistants(page).count(), 1, "the edited turn replaced the one it edits");
      assert.equal(await answerText(edited), "the edited question");
      assert.equal(await users(page).last().innerText(), "the edited question");
      assert.equal(typeof streams[1].edit, "number");

      // Copy puts the answer's Markdown on the clipboard.
      await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
      await edited.getByRole("button", { name: "Copy answer as Markdown" }).click();
      await edited.getByText("Copied").waitFor();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), "the edited question");
    },
  );

  ws.it(
    "the draft survives a reload; switching folder and coming back through the list restores the old conversation and its draft",
    async ({ page }) => {
      assert.equal(await page.locator(".scope-prefix").innerText(), "deep/inner/");
      const id = new URL(page.url()).searchParams.get("c");
      assert.ok(id, "the stored conversation is in the address");
      const draft = "a half-written question about the gamma line";
      await chatBox(page).fill(draft);
      await page.reload();
      await users(page).last().getByText("the edited question").waitFor();
      assert.equal(await chatBox(page).inputValue(), draft);

      // Another folder: a new conversation with its own (empty) draft.
      await treeItem(page, `${ROOT}notes/`).click();
      await page.getByTestId("welcome").or(page.locator(".welcome")).first().waitFor().catch(() => undefined);
      assert.equal(await assistants(page).count(), 0);
      assert.equal(await chatBox(page).inputValue(), "");

      // Back through the list (it shows every folder: the old one is about deep/inner/).
      await page.getByRole("button", { name: "Conversations" }).click();
      const list = page.getByRole("region", { name: "Conversations" });
      const item = list.locator(`li[data-conversation-id="${id}"] .conversation-open`);
      await item.waitFor();
      const violations = blocking(await axeViolations(page, ".conversation-list"));
      assert.deepEqual(violations, [], formatViolations(violations));
      await item.click();
      await users(page).last().getByText("the edited question").waitFor();
      assert.equal(await page.locator(".scope-prefix").innerText(), "deep/inner/");
      assert.equal(await chatBox(page).inputValue(), draft);
      assert.equal(new URL(page.url()).searchParams.get("c"), id);

      // Sending clears the draft for good.
      await askAndWait(page, draft);
      await page.reload();
      await users(page).last().getByText(draft).waitFor();
      assert.equal(await chatBox(page).inputValue(), "");
    },
  );

  ws.it(
    "the open conversation is in the address: a reload shows it again with its tool cards",
    async ({ page }) => {
      await page.getByRole("button", { name: "New conversation" }).click();
      const { msg } = await askAndWait(page, "use read on kb://me/deep/inner/lines.txt for the reload check");
      assert.equal(await msg.locator('.tool-card[data-tool="read"]').count(), 1);
      await page.waitForFunction(() => new URL(location.href).searchParams.get("c") !== null);
      await page.reload();
      const back = assistants(page).last();
      await back.waitFor();
      assert.equal(await users(page).last().innerText(), "use read on kb://me/deep/inner/lines.txt for the reload check");
      assert.equal(await back.locator('.tool-card[data-tool="read"]').getAttribute("data-status"), "ok");
      assert.equal(await back.getAttribute("data-status"), "done");
    },
  );
});
