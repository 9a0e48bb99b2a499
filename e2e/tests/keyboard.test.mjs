// Keyboard and focus (issue 7): every control of the shell is reachable by
// Tab and shows a visible focus ring; the dialogs keep Tab inside, close on
// Escape and give focus back to the control that opened them.

import assert from "node:assert/strict";
import { describe } from "node:test";
import { screenshot, treeItem } from "../lib/browser.mjs";
import { ADMIN_USER } from "../lib/server.mjs";
import { chatBox } from "../lib/agent.mjs";
import { FAKE_LLM, withWorkspace } from "../lib/fixture.mjs";

const ROOT = `kb://users/${ADMIN_USER}/`;

/**
 * focused describes document.activeElement: a name, whether it matches
 * :focus-visible, and whether something visible marks it (its own outline or
 * box-shadow, the chat box's ring around the textarea, a separator's colour,
 * or for the tree the outline of its active row).
 */
function focused(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return { name: "body", visible: false, focusVisible: false, inDialog: false };
    const ring = (e) => {
      const cs = getComputedStyle(e);
      const outline = cs.outlineStyle !== "none" && parseFloat(cs.outlineWidth) >= 1;
      return outline || (cs.boxShadow !== "none" && cs.boxShadow !== "");
    };
    let visible = ring(el);
    let how = visible ? "own" : "";
    if (!visible && el.matches("textarea") && el.closest(".input-box")) {
      visible = ring(el.closest(".input-box"));
      how = "input-box";
    }
    if (!visible && el.matches(".separator")) {
      const bg = getComputedStyle(el).backgroundColor;
      visible = bg !== "rgba(0, 0, 0, 0)" && bg !== "transparent";
      how = "separator";
    }
    let row = null;
    if (el.getAttribute("role") === "tree") {
      const id = el.getAttribute("aria-activedescendant");
      const r = id ? document.getElementById(id) : null;
      if (r) row = { uri: r.getAttribute("data-uri"), ring: ring(r) };
    }
    const name =
      el.getAttribute("aria-label") ||
      (el.tagName === "SELECT" ? el.id || "select" : "") ||
      el.textContent.trim().slice(0, 30) ||
      el.getAttribute("title") ||
      el.tagName.toLowerCase();
    return {
      name: `${el.tagName.toLowerCase()}:${name}`,
      role: el.getAttribute("role"),
      visible,
      how,
      row,
      focusVisible: el.matches(":focus-visible"),
      inDialog: !!el.closest("dialog[open]"),
    };
  });
}

/** tabCount is how many controls of the open dialog take part in Tab. */
function dialogTabStops(page) {
  return page.evaluate(() => {
    const d = document.querySelector("dialog[open]");
    return [...d.querySelectorAll("a[href],button:not([disabled]),input:not([disabled]):not([type=hidden]),select:not([disabled]),textarea:not([disabled]),summary,[tabindex]")]
      .filter((e) => e.tabIndex >= 0 && e.checkVisibility({ visibilityProperty: true })).length;
  });
}

/** isFocused tells whether the locator's element has focus. */
const isFocused = (loc) => loc.evaluate((el) => el === document.activeElement);

describe("keyboard and focus", { timeout: 120_000 }, () => {
  const ws = withWorkspace({ env: FAKE_LLM, ready: ({ page }) => chatBox(page).waitFor() });

  ws.it(
    "a skip link is the first Tab stop and jumps to the main landmark",
    async ({ page }) => {
      // A page loaded with a kept session starts at the top (signing in
      // left the keyboard in the tree, after the skip link).
      await page.reload();
      await chatBox(page).waitFor();
      await page.keyboard.press("Tab");
      const skip = page.getByRole("link", { name: "Skip to content" });
      assert.ok(await isFocused(skip), "the skip link comes first");
      assert.ok((await skip.boundingBox()).y >= 0, "the focused skip link is on screen");
      await page.keyboard.press("Enter");
      assert.ok(await isFocused(page.getByRole("main")), "focus moved to main");
      assert.equal(await page.getByRole("banner").count(), 1, "a header landmark");
      assert.equal(await page.getByRole("main").count(), 1, "one main landmark");
    },
  );

  ws.it(
    "every control of the shell is reachable by Tab and shows a focus ring",
    async ({ page }) => {
      // A file selected (so rename, delete and the preview take part) and text
      // in the chat box (so Send is enabled).
      await treeItem(page, `${ROOT}Welcome.md`).click();
      await page.locator(".preview-scroll").getByRole("heading", { level: 1 }).waitFor();
      await chatBox(page).fill("a question typed but not sent");
      await page.evaluate(() => document.activeElement?.blur());

      const seen = [];
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press("Tab");
        const f = await focused(page);
        if (seen.length > 0 && f.name === seen[0].name) break; // wrapped round
        if (f.name === "body") continue; // the browser's own UI between rounds
        seen.push(f);
      }
      const names = seen.map((f) => f.name);
      console.log(`# tab order: ${names.join(" | ")}`);
      for (const want of [
        /^button:admin/,
        /^button:Refresh$/,
        /^button:New folder$/,
        /^button:Upload files$/,
        /^button:Rename$/,
        /^button:Delete$/,
        /^div:Files$/,
        /^div:Resize files and preview$/,
        /^div:Content of Welcome\.md$/,
        /^div:Resize preview and KnowAgent$/,
        /^button:Task center$/,
        /^button:New conversation$/,
        /^select:agent-model$/,
        /^button:Home$/,
        /^textarea:Message KnowAgent$/,
        /^button:Send$/,
      ]) {
        assert.ok(names.some((n) => want.test(n)), `${want} is reachable by Tab; got ${names.join(" | ")}`);
      }
      for (const f of seen) {
        assert.ok(f.focusVisible, `${f.name} matches :focus-visible after Tab`);
        assert.ok(f.visible, `${f.name} shows a focus ring`);
      }
      // The tree keeps focus itself; its active row carries the ring.
      const tree = seen.find((f) => f.role === "tree");
      assert.deepEqual(tree.row, { uri: `${ROOT}Welcome.md`, ring: true });

      // Focus rings, checked where they matter most: a tree row, Send, the model picker.
      await page.getByRole("tree", { name: "Files" }).focus();
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("ArrowUp");
      const treeNow = await focused(page);
      assert.ok(treeNow.row?.ring, `the active tree row has an outline: ${JSON.stringify(treeNow)}`);
      const ringOf = (loc) =>
        loc.evaluate((el) => {
          const cs = getComputedStyle(el);
          return { fv: el.matches(":focus-visible"), outline: `${cs.outlineStyle} ${cs.outlineWidth}` };
        });
      const send = page.getByRole("button", { name: "Send" });
      // Moving in the tree may pick another folder: its conversation has its own (empty) draft.
      await chatBox(page).fill("a question typed but not sent");
      await chatBox(page).focus();
      await page.keyboard.press("Tab");
      assert.ok(await isFocused(send));
      assert.deepEqual(await ringOf(send), { fv: true, outline: "solid 2px" });
      await page.getByRole("button", { name: "New conversation" }).focus();
      await page.keyboard.press("Tab");
      const picker = page.getByLabel("Model");
      assert.ok(await isFocused(picker));
      assert.deepEqual(await ringOf(picker), { fv: true, outline: "solid 2px" });
      await screenshot(page, "keyboard-focus-wide");
      await chatBox(page).fill("");
    },
  );

  /**
   * checkDialog opens a dialog from the keyboard, tabs round it twice (and
   * back with Shift+Tab), checks every stop is inside with a visible ring,
   * closes it with Escape and checks focus went back to the opener.
   */
  async function checkDialog({ opener, open, name }) {
    const { page } = ws;
    await opener.focus();
    await open();
    const dialog = page.getByRole("dialog", { name });
    await dialog.waitFor();
    assert.ok((await focused(page)).inDialog, "opening moves focus into the dialog");
    const stops = await dialogTabStops(page);
    assert.ok(stops >= 1, `${name}: ${stops} tab stops`);
    const visited = new Set();
    for (let i = 0; i < stops * 2 + 1; i++) {
      await page.keyboard.press("Tab");
      const f = await focused(page);
      assert.ok(f.inDialog, `${name}: Tab #${i + 1} stayed in the dialog (on ${f.name})`);
      assert.ok(f.focusVisible && f.visible, `${name}: ${f.name} shows a focus ring`);
      visited.add(f.name);
    }
    for (let i = 0; i < stops + 1; i++) {
      await page.keyboard.press("Shift+Tab");
      const f = await focused(page);
      assert.ok(f.inDialog, `${name}: Shift+Tab #${i + 1} stayed in the dialog (on ${f.name})`);
    }
    assert.ok(visited.size >= Math.min(stops, 2), `${name}: visited ${[...visited].join(" | ")}`);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    assert.ok(await isFocused(opener), `${name}: Escape gave focus back to the opener (now on ${(await focused(page)).name})`);
    return [...visited];
  }

  ws.it(
    "the folder command dialog, compile dialog and task center trap focus and close on Escape",
    async ({ page }) => {
      const prefix = page.locator(".scope-prefix");
      const folder = await checkDialog({ opener: prefix, open: () => page.keyboard.press("Enter"), name: /^Folder commands/ });
      assert.ok(folder.some((n) => /Close/.test(n)), folder.join(" | "));

      const box = chatBox(page);
      await checkDialog({
        opener: box,
        open: async () => {
          await page.keyboard.type("compile");
          await page.keyboard.press("Enter");
        },
        name: /^Compile/,
      });
      assert.equal(await box.inputValue(), "");

      const tasksButton = page.getByRole("button", { name: "Task center" });
      const tasks = await checkDialog({ opener: tasksButton, open: () => page.keyboard.press("Enter"), name: "Task center" });
      assert.ok(tasks.some((n) => /Close/.test(n)), tasks.join(" | "));

      const newFolder = page.getByRole("button", { name: "New folder" });
      await checkDialog({ opener: newFolder, open: () => page.keyboard.press("Space"), name: "New folder" });
    },
  );

  ws.it(
    "the delete confirmation traps focus, closes on Escape and keeps the file",
    async ({ page }) => {
      const row = treeItem(page, `${ROOT}Welcome.md`);
      await row.click();
      // From the toolbar button…
      const del = page.getByRole("button", { name: "Delete" });
      const stops = await checkDialog({ opener: del, open: () => page.keyboard.press("Enter"), name: "Delete" });
      assert.ok(stops.some((n) => /Cancel/.test(n)) && stops.some((n) => /^button:Delete/.test(n)), stops.join(" | "));
      // …and from the tree's Delete key: focus goes back to the tree.
      const tree = page.getByRole("tree", { name: "Files" });
      await checkDialog({ opener: tree, open: () => page.keyboard.press("Delete"), name: "Delete" });
      assert.equal(await row.count(), 1, "Escape deleted nothing");
      assert.equal(await row.getAttribute("aria-selected"), "true");
    },
  );
  ws.it(
    "the tree follows the WAI-ARIA tree view keys: Home/End, type-ahead, Right opens and enters, Left goes to the parent and closes",
    async ({ page }) => {
      const tree = page.getByRole("tree", { name: "Files" });
      const items = tree.getByRole("treeitem");
      /** active is the row the tree's aria-activedescendant names; it must be the selected one. */
      const active = async () => {
        const id = await tree.getAttribute("aria-activedescendant");
        assert.ok(id, "the tree names its active row");
        const row = page.locator(`#${id}`);
        assert.equal(await row.getAttribute("aria-selected"), "true");
        return row.getAttribute("data-uri");
      };
      await tree.focus();
      await page.keyboard.press("Home");
      assert.equal(await active(), await items.first().getAttribute("data-uri"));
      await page.keyboard.press("End");
      assert.equal(await active(), await items.last().getAttribute("data-uri"));

      await page.keyboard.press("n");
      assert.equal(await active(), `${ROOT}notes/`);
      const notes = treeItem(page, `${ROOT}notes/`);
      assert.equal(await notes.getAttribute("aria-expanded"), "false");
      await page.keyboard.press("ArrowRight");
      assert.equal(await notes.getAttribute("aria-expanded"), "true");
      await items.filter({ has: page.locator("xpath=self::*[@aria-level='2']") }).first().waitFor();
      await page.keyboard.press("ArrowRight");
      const child = await active();
      assert.ok(child.startsWith(`${ROOT}notes/`) && child !== `${ROOT}notes/`, `Right entered notes/: ${child}`);
      assert.equal(await page.locator(`[data-uri="${child}"]`).getAttribute("aria-level"), "2");
      // Type-ahead finds a visible child by its first letters.
      await page.waitForTimeout(800);
      await page.keyboard.type("res");
      assert.equal(await active(), `${ROOT}notes/research-plan.md`);
      await page.keyboard.press("ArrowLeft");
      assert.equal(await active(), `${ROOT}notes/`);
      await page.keyboard.press("ArrowLeft");
      assert.equal(await notes.getAttribute("aria-expanded"), "false");
      assert.equal(await active(), `${ROOT}notes/`);
      // Focus never left the tree: it is one Tab stop.
      assert.ok(await tree.evaluate((el) => el === document.activeElement));
      await page.waitForTimeout(800);
      await page.keyboard.press("w");
      assert.equal(await active(), `${ROOT}Welcome.md`);
    },
  );
});
