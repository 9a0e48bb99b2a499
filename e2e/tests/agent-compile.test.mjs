import assert from "node:assert/strict";
import { describe } from "node:test";
import { screenshot, treeItem } from "../lib/browser.mjs";
import { randomBytes } from "node:crypto";
import { ADMIN_USER } from "../lib/server.mjs";
import { recordStreams } from "../lib/agent.mjs";
import { openCompileForm, submitCompile } from "../lib/compile.mjs";
import { FAKE_LLM, withWorkspace } from "../lib/fixture.mjs";

const ROOT = `kb://users/${ADMIN_USER}/`;
const BLOBS = `${ROOT}blobs/`;
const BLOB = `${BLOBS}blob.bin`;

describe("KnowAgent compile form and task center", { timeout: 120_000 }, () => {
  const ws = withWorkspace({ env: FAKE_LLM, seed: ({ api }) => api.mkdir(BLOBS) });

  ws.it(
    "'compile' opens the form; a submitted job runs to success in the task center",
    async ({ page }) => {
      const streams = recordStreams(page);
      await treeItem(page, `${ROOT}notes/`).click();
      await page.locator(".scope-prefix", { hasText: /^notes\/$/ }).waitFor();
      const dialog = await openCompileForm(page, /research-plan\.md/);
      await screenshot(page, "agent-compile-form-wide");
      await submitCompile(dialog);
      await dialog.getByRole("button", { name: "Open task center" }).click();
      const tasks = page.getByRole("dialog", { name: "Task center" });
      await tasks.waitFor();
      await tasks.locator('[data-job-state="succeeded"]').waitFor({ timeout: 30_000 });
      assert.match(await tasks.innerText(), /research-plan\.md/);
      await screenshot(page, "agent-task-center-wide");
      assert.equal(streams.length, 0, "compile never reaches the chat model");
    },
  );

  ws.it(
    "a job the parser cannot read fails with its reason; Retry runs it again, all without a reload",
    async ({ page }) => {
      // The first test leaves the task center open.
      if ((await page.getByRole("dialog").count()) > 0) {
        await page.keyboard.press("Escape");
        await page.getByRole("dialog").waitFor({ state: "detached" });
      }
      await page.evaluate(() => {
        window.__e2eNoReload = true;
      });
      await treeItem(page, BLOBS).click();
      await page.locator(".scope-prefix", { hasText: /^blobs\/$/ }).waitFor();
      // Random bytes with NULs: neither text nor a known format.
      const bytes = Buffer.concat([Buffer.from([0x7f, 0x45, 0x00, 0x00, 0xff, 0xfe, 0x00]), randomBytes(4096)]);
      await page.getByTestId("upload-input").setInputFiles({ name: "blob.bin", mimeType: "application/octet-stream", buffer: bytes });
      const row = treeItem(page, BLOB);
      await row.waitFor();

      const form = await openCompileForm(page, /blob\.bin/);
      await submitCompile(form);
      await form.getByRole("button", { name: "Open task center" }).click();

      const tasks = page.getByRole("dialog", { name: "Task center" });
      await tasks.waitFor();
      const job = tasks.locator("li.job", { hasText: "blob.bin" });
      await job.and(page.locator('[data-job-state="failed"]')).waitFor({ timeout: 30_000 });
      // Said by its code in the reader's words; the server's own sentence is the tooltip.
      const reason = await job.locator(".error").innerText();
      assert.equal(reason, "The file is of a type that cannot be read.");
      assert.match(await job.locator(".error").getAttribute("title"), /blob\.bin(:| is) a binary file of an unknown type/); // wording of internal/extract (c1af437)
      // A first try is not counted.
      const attempts1 = await job.locator(".job-meta").innerText();
      assert.doesNotMatch(attempts1, /\btry\b|attempt/i);
      // The tree, behind the dialog, says so too.
      const badge = row.locator('[data-badge="failed"]');
      await badge.waitFor({ timeout: 10_000 });
      assert.equal(await badge.innerText(), "failed");
      assert.match(await badge.getAttribute("title"), /Compile failed: The file is of a type that cannot be read\./);
      await screenshot(page, "agent-job-failed-wide");

      // Record every state and attempt count the job row shows from here on.
      await job.evaluate((li) => {
        const seen = [];
        const note = () => {
          const s = `${li.getAttribute("data-job-state")}|${li.querySelector(".job-meta")?.textContent ?? ""}`;
          if (seen.at(-1) !== s) seen.push(s);
        };
        note();
        new MutationObserver(note).observe(li, { attributes: true, childList: true, subtree: true, characterData: true });
        window.__e2eJobStates = seen;
      });
      const retried = page.waitForResponse((r) => /\/api\/v1\/jobs\/\d+\/retry$/.test(r.url()) && r.request().method() === "POST");
      await job.getByRole("button", { name: "Retry" }).click();
      const res = await retried;
      assert.equal(res.status(), 200);
      const body = await res.json();
      assert.equal(body.state, "queued");
      assert.equal(body.attempts, 0);

      // It runs again and fails again for the same reason.
      const deadline = Date.now() + 30_000;
      let states;
      for (;;) {
        states = await page.evaluate(() => window.__e2eJobStates.slice());
        if (states.length > 1 && states.at(-1).startsWith("failed|")) break;
        assert.ok(Date.now() < deadline, `job states: ${states.join(" → ")}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const middle = states.slice(1, -1);
      assert.ok(
        middle.some((s) => /^(queued|running)\|/.test(s)),
        `the row showed the job queued or running again: ${states.join(" → ")}`,
      );
      // The count was reset (attempts 0 above), so the second run is a first try again.
      assert.ok(states.every((s) => !/\btry \d/.test(s)), `no try was counted: ${states.join(" → ")}`);
      assert.equal(await job.locator(".error").innerText(), reason);
      assert.equal(await tasks.locator("li.job", { hasText: "blob.bin" }).count(), 1, "the same job was retried, not a new one made");
      await job.getByRole("button", { name: "Retry" }).waitFor();
      await row.locator('[data-badge="failed"]').waitFor({ timeout: 10_000 });
      assert.equal(await page.evaluate(() => window.__e2eNoReload), true, "the page was not reloaded");
      console.log(`# retried job states: ${states.join(" → ")}`);
      await page.keyboard.press("Escape");
      await tasks.waitFor({ state: "detached" });
    },
  );
});
