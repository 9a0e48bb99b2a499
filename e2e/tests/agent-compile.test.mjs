import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { launchBrowser, loginThroughUI, newPage, screenshot, shotOnFailure, treeItem } from "../lib/browser.mjs";
import { ADMIN_USER, startServer } from "../lib/server.mjs";
import { ask, recordStreams } from "../lib/agent.mjs";

const ROOT = `kb://users/${ADMIN_USER}/`;

describe("KnowAgent compile form and task center", { timeout: 120_000 }, () => {
  let server;
  let browser;
  let page;
  before(async () => {
    server = await startServer({ KB_FAKE_LLM: "1" });
    browser = await launchBrowser();
    page = await newPage(browser, server.baseURL);
    await loginThroughUI(page);
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it(
    "'compile' opens the form; a submitted job runs to success in the task center",
    shotOnFailure(() => page, async () => {
      const streams = recordStreams(page);
      await treeItem(page, `${ROOT}notes/`).click();
      await page.locator(".scope-prefix", { hasText: /^kb:\/\/me\/notes\/$/ }).waitFor();
      await ask(page, "compile");
      const dialog = page.getByRole("dialog");
      await dialog.waitFor();
      await dialog.getByRole("checkbox", { name: /research-plan\.md/ }).check();
      await dialog.getByRole("combobox", { name: "Compile model" }).selectOption("fake");
      await screenshot(page, "agent-compile-form-wide");
      await dialog.getByRole("button", { name: /^Compile 1 file$/ }).click();
      const result = dialog.getByTestId("compile-result");
      await result.waitFor();
      assert.match(await result.innerText(), /1 job queued/);
      await dialog.getByRole("button", { name: "Open task center" }).click();
      const tasks = page.getByRole("dialog", { name: "Task center" });
      await tasks.waitFor();
      await tasks.locator('[data-job-state="succeeded"]').waitFor({ timeout: 30_000 });
      assert.match(await tasks.innerText(), /research-plan\.md/);
      await screenshot(page, "agent-task-center-wide");
      assert.equal(streams.length, 0, "compile never reaches the chat model");
    }),
  );
});
