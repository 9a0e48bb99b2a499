// Answers that outlive the page (issue 43): a reload follows the answer
// still being written, a second tab sees it grow and can stop it, and a
// dropped network resumes from the last event with no gap.
import assert from "node:assert/strict";
import { describe } from "node:test";
import { answerText, ask, chatBox, lastAssistant, waitStatus } from "../lib/agent.mjs";
import { loginThroughUI, newPage } from "../lib/browser.mjs";
import { FAKE_LLM, withWorkspace } from "../lib/fixture.mjs";
import { startProxy } from "../lib/tcpProxy.mjs";

// The fake model answers with the question, 200 ms a word ([[slow]]): this
// one takes about 8 s.
const long = (tag) =>
  `[[slow]] ${tag} ` + Array.from({ length: 36 }, (_, i) => `word${i}`).join(" ");

/** grows waits until the answer's text is longer than it was. */
async function grows(msg, than = 0) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const n = (await answerText(msg)).length;
    if (n > than) return n;
    if (Date.now() > deadline) throw new Error(`the answer stayed at ${n} characters`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const conversationInURL = (page) => page.waitForFunction(() => new URL(location.href).searchParams.get("c") !== null);

describe("KnowAgent answers that outlive the page", { timeout: 180_000 }, () => {
  const ws = withWorkspace({ env: FAKE_LLM, ready: ({ page }) => chatBox(page).waitFor() });

  ws.it("a reload in the middle of an answer follows it to its end, whole", async ({ page }) => {
    const q = long("reload");
    await ask(page, q);
    const msg = lastAssistant(page);
    await grows(msg, 20);
    await conversationInURL(page);
    await page.reload();
    const again = lastAssistant(page);
    await again.waitFor();
    assert.equal(await again.getAttribute("data-status"), "streaming", "the answer is still being written after the reload");
    assert.equal(await waitStatus(again, ["done", "error", "stopped"], 30_000), "done");
    assert.equal(await answerText(again), q, "the whole answer, nothing twice, nothing missing");
  });

  ws.it("a second tab sees the answer grow, the list marks it answering, and Stop there stops it in the first", async ({ page }) => {
    await page.getByRole("button", { name: "New conversation" }).click();
    await ask(page, long("second tab"));
    const first = lastAssistant(page);
    await grows(first, 10);
    await conversationInURL(page);
    const second = await page.context().newPage();
    ws.show(second);
    await second.goto(page.url());
    const mirror = lastAssistant(second);
    await mirror.waitFor();
    const n = await grows(mirror, 0);
    await grows(mirror, n); // it grows here too, live
    assert.equal(await mirror.getAttribute("data-status"), "streaming");

    await second.getByRole("button", { name: "Conversations" }).click();
    const list = second.getByRole("region", { name: "Conversations" });
    await list.locator("[data-answering]").first().waitFor();
    assert.match(await list.locator("[data-answering]").first().innerText(), /answering/i);
    await second.keyboard.press("Escape");

    await second.getByRole("button", { name: "Stop" }).click();
    assert.equal(await waitStatus(mirror, ["stopped", "done", "error"]), "stopped");
    assert.equal(await waitStatus(first, ["stopped", "done", "error"]), "stopped", "the first tab sees the Stop");
    assert.match(await first.locator(".turn-status").innerText(), /Stopped/);
    await second.close();
    ws.show(page);
  });

  ws.it("a network cut of 2 s shows reconnecting and the answer goes on without a gap", async ({ browser, server }) => {
    const proxy = await startProxy(server.baseURL);
    try {
      const page = ws.show(await newPage(browser, proxy.url));
      await loginThroughUI(page);
      await chatBox(page).waitFor();
      const q = long("network cut");
      await ask(page, q);
      const msg = lastAssistant(page);
      await grows(msg, 20);
      proxy.cut(2000);
      await msg.getByText(/Reconnecting/).waitFor({ timeout: 5_000 });
      assert.equal(await waitStatus(msg, ["done", "error", "stopped", "incomplete"], 30_000), "done");
      assert.equal(await answerText(msg), q, "the words sent while the network was down are there, once");
      await page.context().close();
    } finally {
      await proxy.close();
    }
  });
});
