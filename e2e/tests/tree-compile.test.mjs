// Compile from the tree (issue 40, item 2): rows are picked with Ctrl-click,
// Shift-click and Shift+arrows, their context menu (right-click, Shift+F10,
// the ContextMenu key) holds Compile, and the compile dialog opens with
// exactly the picked files ticked and follows its jobs until they end. The
// Compile… button beside the tree's title is there without a model too, and
// then the dialog says what is missing.

import assert from "node:assert/strict";
import { describe } from "node:test";
import { screenshot, treeItem } from "../lib/browser.mjs";
import { ADMIN_USER } from "../lib/server.mjs";
import { assertAccessible } from "../lib/axe.mjs";
import { compileForm } from "../lib/compile.mjs";
import { FAKE_LLM, withWorkspace } from "../lib/fixture.mjs";

const ROOT = `kb://users/${ADMIN_USER}/`;
const BATCH = `${ROOT}batch/`;
const SUB = `${BATCH}sub/`;
const [A, B, C, D] = [`${BATCH}a.md`, `${BATCH}b.md`, `${BATCH}c.md`, `${SUB}d.md`];

const seed = async ({ api }) => {
  await api.mkdir(BATCH);
  await api.mkdir(SUB);
  await api.upload(BATCH, { "a.md": "# A\n\nAlpha notes.\n", "b.md": "# B\n\nBeta notes.\n", "c.md": "# C\n\nGamma notes.\n" });
  await api.upload(SUB, { "d.md": "# D\n\nDelta notes.\n" });
};

/** selectedURIs lists the tree rows marked selected, in view order. */
const selectedURIs = (page) =>
  page.locator('[role="treeitem"][aria-selected="true"]').evaluateAll((rows) => rows.map((r) => r.getAttribute("data-uri")));

/** ticked lists the names of the dialog's ticked checkboxes. */
const ticked = (dialog) =>
  dialog.locator('input[type="checkbox"]:checked').evaluateAll((boxes) => boxes.map((b) => b.closest("label").querySelector(".ellipsis").textContent));

/** activeName describes the focused element: its role and name, for messages. */
const focusedDesc = (page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return `${el?.tagName.toLowerCase()}[role=${el?.getAttribute("role")}] ${(el?.getAttribute("aria-label") ?? el?.textContent ?? "").trim().slice(0, 40)}`;
  });

/** openBatch expands batch/ and waits for its files. */
async function openBatch(page) {
  if ((await treeItem(page, BATCH).getAttribute("aria-expanded")) !== "true") await treeItem(page, BATCH).click();
  await treeItem(page, C).waitFor();
}

describe("compile from the tree", { timeout: 150_000 }, () => {
  const ws = withWorkspace({ env: FAKE_LLM, seed });

  ws.it("Ctrl-click picks two files, right-click → Compile ticks exactly them, and the dialog follows their jobs to succeeded", async ({ page }) => {
    const tree = page.getByRole("tree", { name: "Files" });
    assert.equal(await tree.getAttribute("aria-multiselectable"), "true");
    await openBatch(page);
    await treeItem(page, A).click();
    await treeItem(page, B).click({ modifiers: ["ControlOrMeta"] });
    assert.deepEqual(await selectedURIs(page), [A, B]);
    assert.equal(await treeItem(page, C).getAttribute("aria-selected"), "false");
    // The current row, the preview's, is the one clicked last.
    await page.locator(".preview-scroll").getByRole("heading", { name: "B", exact: true }).waitFor();

    await treeItem(page, B).click({ button: "right" });
    const menu = page.getByRole("menu", { name: "Actions on 2 items" });
    await menu.waitFor();
    const items = await menu.getByRole("menuitem").allInnerTexts();
    assert.deepEqual(
      items.map((s) => s.trim()),
      ["Compile…", "Keep compiled…", "Share", "Rename", "Move…", "Delete", "Download"],
    );
    for (const off of ["Rename", "Share", "Keep compiled…"]) {
      assert.equal(await menu.getByRole("menuitem", { name: off }).getAttribute("aria-disabled"), "true", `${off} is off for two files`);
    }
    await screenshot(page, "tree-context-menu-wide");
    await assertAccessible(page, ".tree-menu");
    await assertAccessible(page, '[role="tree"]');
    await menu.getByRole("menuitem", { name: "Compile…" }).click();
    await menu.waitFor({ state: "detached" });

    const dialog = compileForm(page);
    await dialog.waitFor();
    await dialog.getByRole("checkbox", { name: "c.md" }).waitFor();
    assert.deepEqual(await ticked(dialog), ["a.md", "b.md"]);
    // The subfolder is offered, not ticked.
    assert.equal(await dialog.getByRole("checkbox", { name: /sub\// }).isChecked(), false);
    // Model and skill up front, the rest under a closed Advanced.
    await dialog.getByRole("combobox", { name: "Compile model" }).selectOption("fake");
    await dialog.getByLabel("Skill").waitFor();
    assert.equal(await dialog.getByRole("combobox", { name: "Executor" }).isVisible(), false);
    assert.equal(await dialog.getByRole("spinbutton", { name: "Call budget" }).isVisible(), false);
    await dialog.getByText("Advanced").click();
    await dialog.getByRole("combobox", { name: "Executor" }).waitFor();
    await screenshot(page, "tree-compile-dialog-wide");
    await assertAccessible(page, "dialog[open]");

    await dialog.getByRole("button", { name: "Compile 2 files" }).click();
    const result = dialog.getByTestId("compile-result");
    await result.waitFor();
    // Every state each job's line shows, from the first answer on.
    await result.evaluate((el) => {
      const seen = {};
      const note = () => {
        for (const li of el.querySelectorAll("li[data-job-state]")) {
          const list = (seen[li.dataset.uri] ??= []);
          if (list.at(-1) !== li.dataset.jobState) list.push(li.dataset.jobState);
        }
      };
      note();
      new MutationObserver(note).observe(el, { attributes: true, childList: true, subtree: true });
      window.__e2eTreeJobStates = seen;
    });
    assert.match(await result.innerText(), /2 jobs queued/);
    await result.locator('li[data-job-state="succeeded"]').nth(1).waitFor({ timeout: 60_000 });
    await result.getByTestId("compile-progress").filter({ hasText: /Every job ended: 2 succeeded/ }).waitFor();
    const states = await page.evaluate(() => window.__e2eTreeJobStates);
    console.log(`# job states: ${JSON.stringify(states)}`);
    assert.deepEqual(Object.keys(states).sort(), [A, B]);
    for (const [uri, list] of Object.entries(states)) {
      assert.ok(["queued", "running"].includes(list[0]), `${uri} started queued or running: ${list.join(" → ")}`);
      assert.equal(list.at(-1), "succeeded", `${uri}: ${list.join(" → ")}`);
    }
    await screenshot(page, "tree-compile-followed-wide");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    // The tree shows the summaries too.
    await treeItem(page, A).locator('[data-badge="fresh"]').waitFor({ timeout: 15_000 });
  });

  ws.it("Shift+F10 opens the menu on the current row, ArrowDown and Enter pick Compile, focus lands on the dialog's first control", async ({ page }) => {
    const tree = page.getByRole("tree", { name: "Files" });
    await openBatch(page);
    await treeItem(page, C).click();
    assert.ok(await tree.evaluate((el) => el === document.activeElement), "a click on a row focuses the tree");

    // Shift+Up extends the selection; the current row moves with it.
    await page.keyboard.press("Shift+ArrowUp");
    assert.deepEqual(await selectedURIs(page), [B, C]);
    assert.equal(await tree.getAttribute("aria-activedescendant"), await treeItem(page, B).getAttribute("id"));
    await page.keyboard.press("Shift+ArrowDown");
    assert.deepEqual(await selectedURIs(page), [C]);

    // The ContextMenu key opens it too; Escape closes it and gives the tree focus back on its row.
    await page.keyboard.press("ContextMenu");
    const menu = page.getByRole("menu");
    await menu.waitFor();
    assert.ok(await menu.evaluate((el) => el === document.activeElement), `the menu has focus, not ${await focusedDesc(page)}`);
    await page.keyboard.press("Escape");
    await menu.waitFor({ state: "detached" });
    assert.ok(await tree.evaluate((el) => el === document.activeElement), `Escape gave focus back to the tree, not ${await focusedDesc(page)}`);
    assert.equal(await tree.getAttribute("aria-activedescendant"), await treeItem(page, C).getAttribute("id"));

    await page.keyboard.press("Shift+F10");
    await menu.waitFor();
    assert.equal(await menu.getAttribute("aria-label"), "Actions on c.md");
    await page.keyboard.press("ArrowDown");
    const compile = menu.getByRole("menuitem", { name: "Compile…" });
    assert.ok(await compile.evaluate((el) => el === document.activeElement), `ArrowDown reached Compile, not ${await focusedDesc(page)}`);
    // End and Home go round the items; one file can be renamed.
    await page.keyboard.press("End");
    await page.keyboard.press("Home");
    assert.ok(await compile.evaluate((el) => el === document.activeElement));
    assert.equal(await menu.getByRole("menuitem", { name: "Rename" }).getAttribute("aria-disabled"), null);
    await page.keyboard.press("Enter");

    const dialog = compileForm(page);
    await dialog.waitFor();
    await page.waitForFunction(() => {
      const d = document.querySelector("dialog[open]");
      const first = d?.querySelector("form input, form select, form button, form summary");
      return first && first === document.activeElement;
    });
    // The first control is the first file of the folder's list; only the picked one is ticked.
    const first = await page.evaluate(() => {
      const el = document.activeElement;
      return { type: el.getAttribute("type"), name: el.closest("label")?.querySelector(".ellipsis")?.textContent };
    });
    assert.deepEqual(first, { type: "checkbox", name: "a.md" });
    assert.deepEqual(await ticked(dialog), ["c.md"]);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    assert.ok(await tree.evaluate((el) => el === document.activeElement), `closing the dialog gave focus back to the tree, not ${await focusedDesc(page)}`);
  });

  ws.it("Compile on a folder ticks its files and offers its subfolders, whose files a tick adds", async ({ page }) => {
    await openBatch(page);
    await treeItem(page, BATCH).click({ button: "right" });
    await page.getByRole("menu", { name: "Actions on batch" }).getByRole("menuitem", { name: "Compile…" }).click();
    const dialog = compileForm(page);
    await dialog.waitFor();
    await dialog.getByRole("checkbox", { name: "c.md" }).waitFor();
    assert.deepEqual(await ticked(dialog), ["a.md", "b.md", "c.md"]);
    await dialog.getByRole("checkbox", { name: /sub\// }).check();
    await dialog.getByRole("checkbox", { name: "d.md" }).waitFor();
    await dialog.getByRole("button", { name: "Compile 4 files" }).waitFor();
    assert.deepEqual(await ticked(dialog), ["a.md", "b.md", "c.md", "sub/", "d.md"]);
    await dialog.getByRole("checkbox", { name: /sub\// }).uncheck();
    await dialog.getByRole("button", { name: "Compile 3 files" }).waitFor();
    assert.equal(await dialog.getByRole("checkbox", { name: "d.md" }).count(), 0);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
  });
});

describe("compile from the tree without a model", { timeout: 60_000 }, () => {
  const ws = withWorkspace({ seed });

  ws.it("the Compile… button beside the tree's title is there, and its dialog says what is missing", async ({ page }) => {
    await page.getByTestId("no-models").waitFor();
    await treeItem(page, BATCH).click();
    await page.locator(".tree-panel .panel-header").getByRole("button", { name: "Compile…" }).click();
    const dialog = compileForm(page);
    await dialog.waitFor();
    const missing = dialog.getByTestId("compile-no-model");
    await missing.waitFor();
    assert.match(await missing.innerText(), /No model is configured/);
    assert.match(await missing.innerText(), /OPENAI_API_KEY/);
    await dialog.getByRole("checkbox", { name: "a.md" }).waitFor();
    assert.deepEqual(await ticked(dialog), ["a.md", "b.md", "c.md"]);
    assert.equal(await dialog.getByRole("button", { name: "Compile 3 files" }).isDisabled(), true);
    await screenshot(page, "tree-compile-no-model-wide");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
  });
});
