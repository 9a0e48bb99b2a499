import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { NARROW, closeDialogs, loginThroughUI, newPage, previewContent, shotOnFailure, treeItem } from "../lib/browser.mjs";
import { ADMIN_USER } from "../lib/server.mjs";
import { ask, askAndWait, chatBox } from "../lib/agent.mjs";
import { axeViolations, blocking, formatViolations } from "../lib/axe.mjs";
import { FAKE_LLM, withWorkspace } from "../lib/fixture.mjs";

const ROOT = `kb://users/${ADMIN_USER}/`;

// Every screen is checked in both colour schemes: the dark one has its own palette.
for (const colorScheme of ["light", "dark"]) {
  describe(`axe-core, ${colorScheme} scheme`, { timeout: 180_000 }, () => {
    const ws = withWorkspace({ env: FAKE_LLM, page: false });
    let server, browser, page;
    before(() => ({ server, browser } = ws));

    /** check fails on serious or critical violations and prints the rest. */
    async function check(screen) {
      const all = await axeViolations(page);
      const bad = blocking(all);
      const minor = all.filter((v) => !bad.includes(v));
      if (minor.length) console.log(`# ${screen} (${colorScheme}), minor/moderate:\n${formatViolations(minor)}`);
      assert.equal(bad.length, 0, `${screen} (${colorScheme}):\n${formatViolations(bad)}`);
    }

    it(
      "login screen",
      shotOnFailure(() => page, async () => {
        page = await newPage(browser, server.baseURL);
        await page.emulateMedia({ colorScheme });
        await page.goto("/");
        await page.getByLabel("Username").waitFor();
        await check("login");
      }),
    );

    it(
      "workspace with a file open",
      shotOnFailure(() => page, async () => {
        await loginThroughUI(page);
        await treeItem(page, `${ROOT}notes/`).click();
        await treeItem(page, `${ROOT}notes/research-plan.md`).click();
        await previewContent(page).getByRole("heading").first().waitFor();
        await check("workspace");
      }),
    );

    it(
      "a streamed answer with tool cards",
      shotOnFailure(() => page, async () => {
        await chatBox(page).waitFor();
        const { msg } = await askAndWait(page, "use ls on kb://me/notes/ please");
        await msg.locator(".tool-card").first().waitFor();
        await msg.locator(".tool-card summary").first().click();
        await check("answer with tool cards");
      }),
    );

    it(
      "compile dialog",
      shotOnFailure(() => page, async () => {
        await ask(page, "compile");
        const dialog = page.getByRole("dialog", { name: /^Compile/ });
        await dialog.waitFor();
        await dialog.getByRole("checkbox", { name: /research-plan\.md/ }).check();
        await dialog.getByRole("combobox", { name: "Compile model" }).selectOption("fake");
        await check("compile dialog");
        await dialog.getByRole("button", { name: /^Compile 1 file$/ }).click();
        await dialog.getByTestId("compile-result").filter({ hasText: /1 job queued/ }).waitFor();
        await check("compile dialog with its result");
        await closeDialogs(page);
      }),
    );

    it(
      "task center with a finished job, then the tree with its badge",
      shotOnFailure(() => page, async () => {
        await page.getByRole("button", { name: "Task center" }).click();
        const tasks = page.getByRole("dialog", { name: "Task center" });
        await tasks.locator('[data-job-state="succeeded"]').waitFor({ timeout: 30_000 });
        await check("task center");
        await closeDialogs(page);
        await treeItem(page, `${ROOT}notes/research-plan.md`).locator("[data-badge]").waitFor({ timeout: 30_000 });
        await check("tree with a compiled file");
      }),
    );

    it(
      "narrow layout",
      shotOnFailure(() => page, async () => {
        await page.context().close();
        page = await newPage(browser, server.baseURL, NARROW);
        await page.emulateMedia({ colorScheme });
        await loginThroughUI(page);
        await check("narrow workspace");
      }),
    );

    it(
      "an empty workspace: the tree says it is empty, beside the tree, not inside it",
      shotOnFailure(() => page, async () => {
        const [user, password] = ["empty-tree", "empty-tree-Password-1"];
        await ws.api.createUser(user, password);
        const own = ws.apiAs(user, password);
        for (const name of ["Welcome.md", "data/", "notes/"]) {
          const uri = encodeURIComponent(`kb://users/${user}/${name}`);
          const res = await own.raw(`/resources?uri=${uri}`, { method: "DELETE" });
          assert.equal(res.status, 204, `delete ${name}: ${await res.text()}`);
        }
        await page?.context().close();
        page = await newPage(browser, server.baseURL);
        await page.emulateMedia({ colorScheme });
        await loginThroughUI(page, user, password);
        await page.getByText("Empty folder").waitFor();
        assert.equal(await page.getByRole("tree").getByText("Empty folder").count(), 0, "the note is not inside the tree");
        await check("empty workspace");
      }),
    );
  });
}
