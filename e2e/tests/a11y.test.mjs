import assert from "node:assert/strict";
import { describe } from "node:test";
import { NARROW, closeDialogs, loginThroughUI, previewContent, treeItem } from "../lib/browser.mjs";
import { ADMIN_USER } from "../lib/server.mjs";
import { askAndWait, chatBox } from "../lib/agent.mjs";
import { openCompileForm, submitCompile } from "../lib/compile.mjs";
import { axeViolations, blocking, formatViolations } from "../lib/axe.mjs";
import { FAKE_LLM, withWorkspace } from "../lib/fixture.mjs";

const ROOT = `kb://users/${ADMIN_USER}/`;

// Every screen is checked in both colour schemes: the dark one has its own palette.
for (const colorScheme of ["light", "dark"]) {
  describe(`axe-core, ${colorScheme} scheme`, { timeout: 180_000 }, () => {
    const ws = withWorkspace({ env: FAKE_LLM, signIn: false, onPage: (page) => page.emulateMedia({ colorScheme }) });

    /** check fails on serious or critical violations on the page the test shows, and prints the rest. */
    async function check(screen) {
      const all = await axeViolations(ws.current());
      const bad = blocking(all);
      const minor = all.filter((v) => !bad.includes(v));
      if (minor.length) console.log(`# ${screen} (${colorScheme}), minor/moderate:\n${formatViolations(minor)}`);
      assert.equal(bad.length, 0, `${screen} (${colorScheme}):\n${formatViolations(bad)}`);
    }

    ws.it(
      "login screen",
      async ({ page }) => {
        await page.goto("/");
        await page.getByLabel("Username").waitFor();
        await check("login");
      },
    );

    ws.it(
      "workspace with a file open",
      async ({ page }) => {
        await loginThroughUI(page);
        await treeItem(page, `${ROOT}notes/`).click();
        await treeItem(page, `${ROOT}notes/research-plan.md`).click();
        await previewContent(page).getByRole("heading").first().waitFor();
        await check("workspace");
      },
    );

    ws.it(
      "a streamed answer with tool cards",
      async ({ page }) => {
        await chatBox(page).waitFor();
        const { msg } = await askAndWait(page, "use ls on kb://me/notes/ please");
        await msg.locator(".tool-card").first().waitFor();
        await msg.locator(".tool-card summary").first().click();
        await check("answer with tool cards");
      },
    );

    ws.it(
      "compile dialog",
      async ({ page }) => {
        const dialog = await openCompileForm(page, /research-plan\.md/);
        await check("compile dialog");
        await submitCompile(dialog);
        await check("compile dialog with its result");
        await closeDialogs(page);
      },
    );

    ws.it(
      "task center with a finished job, then the tree with its badge",
      async ({ page }) => {
        await page.getByRole("button", { name: "Task center" }).click();
        const tasks = page.getByRole("dialog", { name: "Task center" });
        await tasks.locator('[data-job-state="succeeded"]').waitFor({ timeout: 30_000 });
        await check("task center");
        await closeDialogs(page);
        await treeItem(page, `${ROOT}notes/research-plan.md`).locator("[data-badge]").waitFor({ timeout: 30_000 });
        await check("tree with a compiled file");
      },
    );

    ws.it(
      "narrow layout",
      async () => {
        await ws.current().context().close();
        const page = await ws.open({ viewport: NARROW, signIn: false });
        await page.emulateMedia({ colorScheme });
        await loginThroughUI(page);
        await check("narrow workspace");
      },
    );

    ws.it(
      "an empty workspace: the tree says it is empty, beside the tree, not inside it",
      async () => {
        const [user, password] = ["empty-tree", "empty-tree-Password-1"];
        await ws.api.createUser(user, password);
        const own = ws.apiAs(user, password);
        for (const name of ["Welcome.md", "data/", "notes/"]) {
          const uri = encodeURIComponent(`kb://users/${user}/${name}`);
          const res = await own.raw(`/resources?uri=${uri}`, { method: "DELETE" });
          assert.equal(res.status, 204, `delete ${name}: ${await res.text()}`);
        }
        await ws.current().context().close();
        const page = await ws.open({ signIn: false });
        await page.emulateMedia({ colorScheme });
        await loginThroughUI(page, user, password);
        await page.getByText("Empty folder").waitFor();
        assert.equal(await page.getByRole("tree").getByText("Empty folder").count(), 0, "the note is not inside the tree");
        await check("empty workspace");
      },
    );
  });
}
