// Stored conversations in the browser (issue 14): flipping between versions
// of an answer after Retry, the conversation list (search, rename, delete
// with Undo, Export) and Temporary chat.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { describe } from "node:test";
import { answerText, askAndWait, assistants, chatBox, waitStatus } from "../lib/agent.mjs";
import { FAKE_LLM, withWorkspace } from "../lib/fixture.mjs";

describe("KnowAgent stored conversations", { timeout: 180_000 }, () => {
  const ws = withWorkspace({ env: FAKE_LLM, ready: ({ page }) => chatBox(page).waitFor() });

  const list = () => ws.page.getByRole("region", { name: "Conversations" });
  const openList = async () => {
    if (!(await list().isVisible())) await ws.page.getByRole("button", { name: "Conversations" }).click();
    await list().waitFor();
  };
  const titles = () => list().locator("li .conversation-title").allInnerTexts();

  ws.it(
    "Retry keeps the first answer: the pager flips back to version 1 and forward to 2, also after a reload",
    async ({ page }) => {
      const q = "the first answer of the versions check";
      const { msg } = await askAndWait(page, q);
      assert.equal(await msg.getByRole("group", { name: "Answer versions" }).count(), 0, "one version: no pager");
      const firstId = await msg.getAttribute("data-id");
      await msg.getByRole("button", { name: "Retry" }).click();
      await page.waitForFunction((id) => {
        const m = document.querySelector('.msg[data-role="assistant"]');
        return m && m.getAttribute("data-id") !== id && m.getAttribute("data-status") === "done";
      }, firstId);
      const again = assistants(page).last();
      assert.equal(await assistants(page).count(), 1);
      const secondId = await again.getAttribute("data-id");
      const pager = again.getByRole("group", { name: "Answer versions" });
      const status = pager.getByRole("status");
      assert.equal((await status.innerText()).trim(), "2 / 2");
      assert.equal(await pager.getByRole("button", { name: "Next version" }).isDisabled(), true);

      await pager.getByRole("button", { name: "Previous version" }).click();
      assert.equal((await status.innerText()).trim(), "1 / 2");
      assert.equal(await again.getAttribute("data-id"), firstId, "version 1 is the first answer");
      assert.equal(await answerText(again), q);
      assert.equal(await again.getAttribute("data-status"), "done");
      assert.equal(await pager.getByRole("button", { name: "Previous version" }).isDisabled(), true);
      assert.equal(await again.getByRole("button", { name: "Retry" }).count(), 0, "Retry acts on the current answer only");

      await pager.getByRole("button", { name: "Next version" }).click();
      assert.equal((await status.innerText()).trim(), "2 / 2");
      assert.equal(await again.getAttribute("data-id"), secondId);

      // After a reload the versions come from the server (?versions=all).
      await page.waitForFunction(() => new URL(location.href).searchParams.get("c") !== null);
      await page.reload();
      const back = assistants(page).last();
      await back.waitFor();
      const backPager = back.getByRole("group", { name: "Answer versions" });
      assert.equal((await backPager.getByRole("status").innerText()).trim(), "2 / 2");
      // Stored turns carry the server's message ids, not the page's.
      const storedSecond = await back.getAttribute("data-id");
      await backPager.getByRole("button", { name: "Previous version" }).click();
      assert.equal((await backPager.getByRole("status").innerText()).trim(), "1 / 2");
      const storedFirst = await back.getAttribute("data-id");
      assert.notEqual(storedFirst, storedSecond, "version 1 is another stored answer");
      assert.ok(Number(storedFirst) < Number(storedSecond), "version 1 is the older answer");
      assert.equal(await answerText(back), q);
    },
  );

  ws.it(
    "the list: search narrows it, rename shows the new title, delete and Undo, Export downloads Markdown",
    async ({ page }) => {
      await page.getByRole("button", { name: "New conversation" }).click();
      await askAndWait(page, "zebra question for the list checks");
      await openList();
      await list().getByText("zebra question for the list checks").waitFor();
      assert.ok((await titles()).length >= 2);

      await list().getByLabel("Search conversations").fill("zebra");
      await page.waitForFunction(() => document.querySelectorAll(".conversation-list li .conversation-open").length === 1);
      assert.deepEqual(await titles(), ["zebra question for the list checks"]);

      await list().getByRole("button", { name: "Rename zebra question for the list checks" }).click();
      const dialog = page.getByRole("dialog", { name: "Rename conversation" });
      await dialog.getByLabel("Title").fill("Zebra renamed");
      await dialog.getByRole("button", { name: "Rename" }).click();
      await list().getByText("Zebra renamed").waitFor();

      // Export: the Markdown holds the question.
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        list().getByRole("button", { name: "Export Zebra renamed as Markdown" }).click(),
      ]);
      assert.match(download.suggestedFilename(), /\.md$/);
      const md = await readFile(await download.path(), "utf8");
      assert.match(md, /zebra question for the list checks/);

      await list().getByRole("button", { name: "Delete Zebra renamed" }).click();
      await list().getByText("Deleted “Zebra renamed”.").waitFor();
      assert.deepEqual(await titles(), []);
      await list().getByRole("button", { name: "Undo" }).click();
      await list().getByText("Zebra renamed").waitFor();
      assert.deepEqual(await titles(), ["Zebra renamed"]);

      // Clearing the search shows the others again.
      await list().getByLabel("Search conversations").fill("");
      await page.waitForFunction(() => document.querySelectorAll(".conversation-list li .conversation-open").length >= 2);
    },
  );

  ws.it(
    "a question asked in a Temporary chat is not in the list after a reload",
    async ({ page }) => {
      await page.getByRole("button", { name: "New conversation" }).click();
      await page.getByLabel("Temporary chat").check();
      const q = "temporary question that must not be stored";
      const { msg } = await askAndWait(page, q);
      assert.equal(await waitStatus(msg, "done"), "done");
      await page.reload();
      await chatBox(page).waitFor();
      await openList();
      await list().getByText("Zebra renamed").waitFor();
      assert.ok(!(await titles()).some((t) => t.includes("temporary question")), "the temporary chat is not stored");
      await list().getByLabel("Search conversations").fill("temporary question");
      await list().getByText("No conversation matches.").waitFor();
    },
  );
});
