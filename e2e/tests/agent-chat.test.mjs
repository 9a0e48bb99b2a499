import assert from "node:assert/strict";
import { before, describe } from "node:test";
import { NARROW, WIDE, screenshot, treeItem } from "../lib/browser.mjs";
import { ADMIN_USER, FAKE_LLM_ABORTED } from "../lib/server.mjs";
import { answerText, ask, askAndWait, assistants, chatBox, lastAssistant, recordStreams, users, waitStatus } from "../lib/agent.mjs";
import { FAKE_LLM, withWorkspace } from "../lib/fixture.mjs";

const ROOT = `kb://users/${ADMIN_USER}/`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** abortedLines counts the fake LLM's "client closed a request early" log lines. */
const abortedLines = async (server) => (await server.logLines(FAKE_LLM_ABORTED)).length;

describe("KnowAgent chat", { timeout: 180_000 }, () => {
  let server, streams;
  const ws = withWorkspace({
    env: FAKE_LLM,
    onPage: (p) => {
      streams = recordStreams(p);
    },
    ready: ({ page }) => chatBox(page).waitFor(),
  });
  before(() => ({ server } = ws));

  ws.it(
    "offers the fake models with their capabilities and a welcome with examples",
    async ({ page }) => {
      const picker = page.getByLabel("Model");
      const labels = await picker.locator("option").allInnerTexts();
      assert.ok(labels.some((l) => l.startsWith("Fake LLM (tools")), labels.join());
      assert.ok(labels.some((l) => /text only/.test(l)), "the text-only model is marked");
      await picker.selectOption("fake");
      assert.match(await page.getByTestId("model-caps").innerText(), /tools · 32k window/);
      assert.ok((await page.getByRole("list", { name: "Example questions" }).getByRole("button").count()) >= 3);
      assert.equal(await page.locator(".scope-prefix").innerText(), "Home");
    },
  );

  ws.it(
    "streams an answer incrementally and marks it complete",
    async ({ page }) => {
      const q = "[[slow]] Streaming check: the quick brown fox jumps over the lazy dog.";
      await ask(page, q);
      const msg = lastAssistant(page);
      await msg.locator(".answer").waitFor();
      const seen = new Set();
      while ((await msg.getAttribute("data-status")) === "streaming") {
        seen.add(await answerText(msg));
        await sleep(60);
      }
      assert.equal(await msg.getAttribute("data-status"), "done");
      assert.equal(await answerText(msg), q);
      assert.ok(seen.size >= 3, `saw ${seen.size} distinct partial texts while streaming`);
      for (const partial of seen) assert.ok(q.startsWith(partial), `partial text is a prefix: ${partial}`);
      assert.match(await msg.locator(".turn-status").innerText(), /Complete/);
      // The Send button is back and the context meter shows the byte estimate.
      await page.getByRole("button", { name: "Send" }).waitFor();
      assert.match(await page.locator(".context-summary").innerText(), /≈[\d.k]+ \/ [\d.k]+ tokens est\./);
    },
  );

  ws.it(
    "shows a tool card before the answer for 'use ls on kb://me/notes/'",
    async ({ page }) => {
      const { msg, status } = await askAndWait(page, "use ls on kb://me/notes/ please");
      assert.equal(status, "done");
      const card = msg.locator('.tool-card[data-tool="ls"]');
      assert.equal(await card.getAttribute("data-status"), "ok");
      assert.match(await card.locator("summary").innerText(), /3 items/);
      // The card comes before the answer text.
      const order = await msg.evaluate((el) => [...el.children].map((c) => c.className.split(" ")[0]));
      assert.ok(order.indexOf("tool-card") < order.indexOf("answer"), order.join());
      assert.match(await answerText(msg), /^Tool result:/);
      // Expanding shows arguments and summary.
      await card.locator("summary").click();
      await card.getByText('"uri": "kb://me/notes/"').waitFor();
      await screenshot(page, "agent-tool-card-wide");
      // The meter's detail: upper-bound label and provider usage beside it.
      await page.locator(".context-summary").click();
      const detail = page.getByLabel("Context details");
      assert.match(await detail.innerText(), /upper bound/);
      assert.match(await detail.innerText(), /input · \d+ output tokens/);
      await page.locator(".context-summary").click();
    },
  );

  ws.it(
    "keeps history across two sends in a row",
    async ({ page }) => {
      await page.getByRole("button", { name: "New conversation" }).click();
      assert.equal(await assistants(page).count(), 0);
      streams.length = 0;
      await askAndWait(page, "First question: alpha");
      await askAndWait(page, "Second question: beta");
      assert.equal(await users(page).count(), 2);
      assert.deepEqual(await users(page).allInnerTexts(), ["First question: alpha", "Second question: beta"]);
      assert.equal(await answerText(assistants(page).nth(0)), "First question: alpha");
      assert.equal(await answerText(assistants(page).nth(1)), "Second question: beta");
      assert.equal(streams.length, 2);
      assert.deepEqual(streams[0].history, []);
      assert.deepEqual(streams[1].history, [
        { role: "user", content: "First question: alpha" },
        { role: "assistant", content: "First question: alpha" },
      ]);
      assert.equal(streams[1].uri, ROOT);
    },
  );

  ws.it(
    "crossing the narrow breakpoint and back keeps a running turn and the conversation",
    async ({ page }) => {
      // The previous test left two completed turns.
      const before = await assistants(page).count();
      assert.ok(before >= 1);
      const sent = streams.length;
      const convBefore = await page.locator(".chat-scroll").getAttribute("data-conversation");
      const q = "[[slow]] Resize check: this answer keeps streaming while the layout goes narrow and back.";
      await ask(page, q);
      const msg = lastAssistant(page);
      await msg.locator(".answer").waitFor();
      const abortedBefore = await abortedLines(server);

      await page.setViewportSize(NARROW);
      await page.getByRole("tablist", { name: "Panels" }).waitFor();
      await page.getByRole("tab", { name: "KnowAgent" }).click();
      assert.equal(await assistants(page).count(), before + 1, "the conversation is intact in the narrow layout");
      assert.equal(await lastAssistant(page).getAttribute("data-status"), "streaming", "the turn still runs in the narrow layout");

      await page.setViewportSize(WIDE);
      await page.getByRole("tablist", { name: "Panels" }).waitFor({ state: "detached" });
      const last = lastAssistant(page);
      assert.equal(await waitStatus(last, ["done", "stopped", "error", "incomplete"]), "done");
      assert.equal(await answerText(last), q);
      assert.equal(await assistants(page).count(), before + 1);
      assert.equal(await page.locator(".chat-scroll").getAttribute("data-conversation"), convBefore);
      assert.equal(streams.length, sent + 1, "the question was sent once");
      assert.equal(await abortedLines(server), abortedBefore, "the provider request was not closed early");
    },
  );

  ws.it(
    "Stop during a slow stream marks the turn stopped, keeps its text, and leaves it out of history",
    async ({ page }) => {
      await page.getByRole("button", { name: "New conversation" }).click();
      streams.length = 0;
      await ask(page, "[[slow]] this answer will be stopped before it is finished, long enough to stop");
      const msg = lastAssistant(page);
      await msg.locator(".answer").waitFor();
      const abortedBefore = await abortedLines(server);
      await page.getByRole("button", { name: "Stop" }).click();
      assert.equal(await waitStatus(msg, ["stopped", "done"]), "stopped");
      // Stop reached the provider: the fake LLM saw its request closed early.
      const lines = await server.waitForLog(FAKE_LLM_ABORTED, { after: abortedBefore, timeout: 5_000 });
      assert.match(lines.at(-1), /level=INFO/);
      const kept = await answerText(msg);
      assert.ok(kept.length > 0, "the partial text stays");
      assert.doesNotMatch(await msg.locator(".turn-status").innerText(), /Complete/);
      // A stopped turn is not sent as history.
      await askAndWait(page, "after the stop");
      assert.deepEqual(streams[1].history, []);
      assert.equal(await assistants(page).nth(0).getAttribute("data-status"), "stopped", "the earlier turn is not overwritten");
    },
  );

  ws.it(
    "Stop during a hanging stream marks the turn stopped",
    async ({ page }) => {
      await ask(page, "[[hang]] this stream hangs after its first chunk");
      const msg = lastAssistant(page);
      await msg.locator(".answer").waitFor();
      await sleep(300);
      assert.equal(await msg.getAttribute("data-status"), "streaming");
      const abortedBefore = await abortedLines(server);
      await page.getByRole("button", { name: "Stop" }).click();
      assert.equal(await waitStatus(msg, ["stopped"]), "stopped");
      assert.match(await msg.locator(".turn-status").innerText(), /Stopped/);
      await server.waitForLog(FAKE_LLM_ABORTED, { after: abortedBefore, timeout: 5_000 });
    },
  );

  ws.it(
    "an upstream stream cut without [DONE] shows a failed turn that keeps the partial text",
    async ({ page }) => {
      const { msg, status } = await askAndWait(page, "[[truncate]] cut me off please", ["error", "incomplete", "done"]);
      assert.equal(status, "error");
      assert.equal(await answerText(msg), "[[truncate]] cut me off please".slice(0, 8));
      const line = await msg.locator(".turn-status").innerText();
      assert.match(line, /Failed — The model provider's answer ended before it was finished\./);
      assert.doesNotMatch(line, /llm_incomplete_stream/);
      await screenshot(page, "agent-failed-wide");
    },
  );

  ws.it(
    "answers with the text-only model",
    async ({ page }) => {
      await page.getByLabel("Model").selectOption("fake-text");
      assert.match(await page.getByTestId("model-caps").innerText(), /text only/);
      // "text only" is a property, not an error: a neutral colour.
      const colours = await page.evaluate(() => {
        const caps = getComputedStyle(document.querySelector('[data-testid="model-caps"]')).color;
        const probe = document.createElement("span");
        probe.className = "error";
        document.body.append(probe);
        const danger = getComputedStyle(probe).color;
        probe.remove();
        return { caps, danger };
      });
      assert.notEqual(colours.caps, colours.danger, "text only is not in the error colour");
      streams.length = 0;
      const { msg, status } = await askAndWait(page, "use ls on kb://me/notes/ with the text model");
      assert.equal(status, "done");
      assert.equal(await msg.locator(".tool-card").count(), 0);
      // The echoed address is a link that reads as the folder's path.
      assert.equal(await answerText(msg), "use ls on notes/ with the text model");
      assert.equal(streams[0].model_id, "fake-text");
      await page.getByLabel("Model").selectOption("fake");
    },
  );

  ws.it(
    "deleting the chat's folder moves the chat to its parent, where a question is answered",
    async ({ page }) => {
      await ws.api("/resources/folders", { method: "POST", json: { uri: `${ROOT}doomed/` } });
      await page.getByRole("button", { name: "Refresh" }).click();
      await treeItem(page, `${ROOT}doomed/`).click();
      await page.locator(".scope-prefix", { hasText: /^doomed\/$/ }).waitFor();
      await page.getByRole("button", { name: "Delete" }).click();
      const dialog = page.getByRole("dialog", { name: "Delete" });
      await dialog.getByRole("button", { name: "Delete" }).click();
      await treeItem(page, `${ROOT}doomed/`).waitFor({ state: "detached" });
      await page.locator(".scope-prefix", { hasText: /^Home$/ }).waitFor({ timeout: 5_000 });
      const { status } = await askAndWait(page, "what is left here?");
      assert.equal(status, "done");
      assert.equal(streams.at(-1).uri, ROOT);
    },
  );

  ws.it(
    "previewing a file of the same folder keeps the chat; switching folder starts a new one and cancels the stream",
    async ({ page }) => {
      await treeItem(page, `${ROOT}notes/`).click();
      await page.locator(".scope-prefix", { hasText: /^notes\/$/ }).waitFor();
      assert.equal(await assistants(page).count(), 0, "selecting another folder started a new conversation");
      await askAndWait(page, "about the notes folder");
      await treeItem(page, `${ROOT}notes/research-plan.md`).click();
      await treeItem(page, `${ROOT}notes/会议纪要.md`).click();
      assert.equal(await assistants(page).count(), 1, "a sibling file keeps the conversation");

      // A running stream is cancelled by a folder switch, up to the provider.
      await ask(page, "[[hang]] still running when the folder changes");
      await lastAssistant(page).locator(".answer").waitFor();
      await sleep(200);
      const abortedBefore = await abortedLines(server);
      const convBefore = await page.locator(".chat-scroll").getAttribute("data-conversation");
      await treeItem(page, `${ROOT}data/`).click();
      await page.locator(".scope-prefix", { hasText: /^data\/$/ }).waitFor();
      assert.equal(await assistants(page).count(), 0);
      assert.notEqual(await page.locator(".chat-scroll").getAttribute("data-conversation"), convBefore);
      await server.waitForLog(FAKE_LLM_ABORTED, { after: abortedBefore, timeout: 5_000 });
      await page.getByRole("button", { name: "Send" }).waitFor();
      const { status } = await askAndWait(page, "a fresh question in data");
      assert.equal(status, "done");
      assert.deepEqual(streams.at(-1).history, []);
      assert.equal(streams.at(-1).uri, `${ROOT}data/`);
    },
  );

  ws.it(
    "turns that complete normally are not logged as aborted by the fake LLM",
    async ({ page }) => {
      await page.getByRole("button", { name: "New conversation" }).click();
      await sleep(300);
      const before = await abortedLines(server);
      for (const q of ["complete one", "complete two", "use ls on kb://me/ to complete"]) {
        const { status } = await askAndWait(page, q);
        assert.equal(status, "done");
      }
      await sleep(500);
      const added = (await server.logLines(FAKE_LLM_ABORTED)).slice(before);
      assert.deepEqual(added, [], "no provider request of a completed turn was closed early");
    },
  );

  ws.it(
    "the quick command 'compile' opens the compile form and never reaches the model",
    async ({ page }) => {
      const before = streams.length;
      await ask(page, "compile");
      const dialog = page.getByRole("dialog");
      await dialog.waitFor();
      assert.match(await dialog.getAttribute("aria-label"), /Compile/);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
      for (const word of ["parse", "compiler"]) {
        await ask(page, word);
        await page.getByRole("dialog").waitFor();
        await page.keyboard.press("Escape");
        await page.getByRole("dialog").waitFor({ state: "detached" });
      }
      assert.equal(streams.length, before, "no stream request was made");
      assert.equal(await chatBox(page).inputValue(), "");
    },
  );

  ws.it(
    "'/' opens the command menu; Shift+Enter adds a line",
    async ({ page }) => {
      const box = chatBox(page);
      await box.fill("");
      await box.type("/");
      const menu = page.getByRole("listbox", { name: "Commands" });
      await menu.waitFor();
      assert.ok((await menu.getByRole("option").count()) >= 3);
      await box.type("l");
      assert.equal(await menu.getByRole("option").count(), 1);
      await box.press("Enter");
      const dialog = page.getByRole("dialog");
      await dialog.waitFor();
      assert.match(await dialog.getAttribute("aria-label"), /Folder commands/);
      await page.keyboard.press("Escape");
      await box.fill("line one");
      await box.press("Shift+Enter");
      await box.type("line two");
      assert.equal(await box.inputValue(), "line one\nline two");
      await box.fill("");
    },
  );
});
