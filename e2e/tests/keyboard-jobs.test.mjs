// The main jobs done with the keyboard alone (issue 18 step 5): no click, no
// focus() — only keys, from the login form to the compile form.

import assert from "node:assert/strict";
import { describe } from "node:test";
import { previewContent, treeItem } from "../lib/browser.mjs";
import { ADMIN_PASSWORD, ADMIN_USER } from "../lib/server.mjs";
import { lastAssistant, waitStatus } from "../lib/agent.mjs";
import { FAKE_LLM, withWorkspace } from "../lib/fixture.mjs";
import { focusedName, tabTo } from "../lib/keyboard.mjs";

const ROOT = `kb://users/${ADMIN_USER}/`;

describe("the main jobs, keyboard only", { timeout: 120_000 }, () => {
  const ws = withWorkspace({ env: FAKE_LLM, signIn: false });

  ws.it(
    "logs in, opens a folder and a file, asks the agent and stops it, opens the compile form",
    async ({ page }) => {
      await page.goto("/");
      const username = page.getByLabel("Username");
      await username.waitFor();
      // The login form focuses Username itself.
      assert.ok(await username.evaluate((el) => el === document.activeElement), "Username has focus on arrival");
      await page.keyboard.type(ADMIN_USER);
      await page.keyboard.press("Tab");
      await page.keyboard.type(ADMIN_PASSWORD);
      await page.keyboard.press("Enter");
      const tree = page.getByRole("tree", { name: "Files" });
      await tree.waitFor();

      // Signed in, the keyboard is in the tree: open notes/ and preview the
      // research plan.
      await page.waitForFunction(() => document.activeElement?.getAttribute("role") === "tree", null, { timeout: 5_000 }).catch(() => {});
      assert.equal(await focusedName(page), "tree:Files", "focus lands on the tree after login");
      const notes = treeItem(page, `${ROOT}notes/`);
      await notes.waitFor(); // type-ahead needs the rows listed
      await page.keyboard.press("n");
      assert.equal(await notes.getAttribute("aria-selected"), "true");
      await page.keyboard.press("ArrowRight");
      assert.equal(await notes.getAttribute("aria-expanded"), "true");
      await treeItem(page, `${ROOT}notes/research-plan.md`).waitFor();
      await page.waitForTimeout(800); // the type-ahead prefix lapses
      await page.keyboard.type("res");
      await page.keyboard.press("Enter");
      await previewContent(page).getByRole("heading").first().waitFor();

      // Ask a slow question, then Tab to Stop and press it.
      await tabTo(page, /^textarea:Message KnowAgent$/);
      await page.keyboard.type("[[slow]] a long answer that the keyboard stops before it is finished, long enough to stop");
      await page.keyboard.press("Enter");
      const msg = lastAssistant(page);
      await msg.locator(".answer").waitFor();
      assert.equal(await msg.getAttribute("data-status"), "streaming");
      await page.keyboard.press("Tab");
      assert.equal(await focusedName(page), "button:Stop");
      await page.keyboard.press("Enter");
      assert.equal(await waitStatus(msg, ["stopped", "done"]), "stopped");

      // Stop leaves the keyboard in the box: type compile, the form opens
      // with focus inside it.
      assert.equal(await focusedName(page), "textarea:Message KnowAgent");
      await page.keyboard.type("compile");
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog", { name: /^Compile/ });
      await dialog.waitFor();
      assert.ok(await dialog.evaluate((d) => d.contains(document.activeElement)), "focus moved into the compile form");
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
    },
  );
});
