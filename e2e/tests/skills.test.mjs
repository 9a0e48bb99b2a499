// Compile skills (issue 16): a skill written in the compile form's skill
// dialog shapes a compile whose summary names it; a skill generated with the
// fake model opens as an unsaved draft and is stored only on Save; the
// Skills list duplicates a built-in and deletes the copy.

import assert from "node:assert/strict";
import { describe } from "node:test";
import { previewContent, screenshot, treeItem } from "../lib/browser.mjs";
import { ADMIN_USER } from "../lib/server.mjs";
import { openCompileForm } from "../lib/compile.mjs";
import { axeViolations, blocking, formatViolations } from "../lib/axe.mjs";
import { FAKE_LLM, withWorkspace } from "../lib/fixture.mjs";

const ROOT = `kb://users/${ADMIN_USER}/`;
const NOTES = `${ROOT}notes/`;
const PLAN = `${NOTES}research-plan.md`;
const SKILL_NAME = "Deadline digest";
const SKILL_PROMPT = "List every date and deadline in the document, one bullet each, with who owns it.";

async function apiSkills(api) {
  return (await api("/knowledge-agent/skills", { status: 200 })).skills;
}

async function assertAxeClean(page, dialog, screen) {
  const handle = await dialog.elementHandle();
  const marker = `axe-${screen.replace(/\W+/g, "-")}`;
  await handle.evaluate((el, m) => el.setAttribute("data-axe", m), marker);
  const bad = blocking(await axeViolations(page, `[data-axe="${marker}"]`));
  assert.equal(bad.length, 0, `${screen}:\n${formatViolations(bad)}`);
}

/** openPlanCompile opens the compile form for notes/ with research-plan.md picked and the fake model. */
async function openPlanCompile(page) {
  await treeItem(page, NOTES).click();
  await page.locator(".scope-prefix", { hasText: /^notes\/$/ }).waitFor();
  return openCompileForm(page, /research-plan\.md/);
}

describe("compile skills", { timeout: 150_000 }, () => {
  const ws = withWorkspace({ env: FAKE_LLM });

  ws.it(
    "a skill written in the dialog is selected, compiles a file, and the summary names it",
    async ({ page }) => {
      const form = await openPlanCompile(page);
      const picker = form.getByRole("combobox", { name: "Skill" });
      assert.match(await picker.inputValue(), /^builtin:/, "a built-in is the default");
      assert.equal(await form.getByRole("button", { name: "Edit…" }).isDisabled(), true, "a built-in is not editable");
      await form.getByRole("button", { name: "Duplicate…" }).waitFor();

      await form.getByRole("button", { name: "New…" }).click();
      const dialog = page.getByRole("dialog", { name: "New skill" });
      await dialog.waitFor();
      // A save without a name is refused on the Name field.
      await dialog.getByRole("textbox", { name: "Prompt" }).fill(SKILL_PROMPT);
      assert.equal(await dialog.getByTestId("prompt-count").innerText(), `${SKILL_PROMPT.length} / 8,000 characters`);
      await dialog.getByRole("button", { name: "Save" }).click();
      const name = dialog.getByRole("textbox", { name: "Name" });
      assert.equal(await name.getAttribute("aria-invalid"), "true");

      await name.fill(SKILL_NAME);
      await dialog.getByRole("button", { name: "Preview prompt" }).click();
      const preview = dialog.getByTestId("prompt-preview");
      await preview.waitFor();
      const previewText = await preview.innerText();
      assert.ok(previewText.includes(SKILL_PROMPT), "the preview holds the skill's prompt");
      assert.match(previewText, /Research plan/i, "and the selected file's text");
      await assertAxeClean(page, dialog, "skill dialog");
      await screenshot(page, "skill-dialog-wide");

      const created = page.waitForResponse((r) => r.url().endsWith("/api/v1/knowledge-agent/skills") && r.request().method() === "POST");
      await dialog.getByRole("button", { name: "Save" }).click();
      const res = await created;
      assert.equal(res.status(), 201);
      const skill = await res.json();
      await dialog.waitFor({ state: "detached" });
      assert.equal(await picker.inputValue(), skill.id, "the saved skill is selected");
      assert.equal(await form.getByRole("button", { name: "Edit…" }).isDisabled(), false);

      const compiled = page.waitForRequest((r) => r.url().endsWith("/api/v1/knowledge-agent/compile"));
      await form.getByRole("button", { name: /^Compile 1 file$/ }).click();
      assert.equal(JSON.parse((await compiled).postData()).skill, skill.id);
      await form.getByTestId("compile-result").filter({ hasText: /1 job queued/ }).waitFor();
      await form.getByRole("button", { name: "Close" }).click();
      await form.waitFor({ state: "detached" });

      const plan = treeItem(page, PLAN);
      await plan.locator('[data-badge="fresh"]').waitFor({ timeout: 30_000 });
      await plan.click();
      await page.locator(".preview .panel-actions").getByRole("link", { name: "Summary" }).click();
      await treeItem(page, `${ROOT}wiki/notes/research-plan.md`).waitFor();
      // The preview shows the provenance as properties, naming the skill.
      const props = previewContent(page).getByTestId("front-matter");
      await props.filter({ hasText: SKILL_NAME }).waitFor();
      // The file itself names the skill and a hash of its prompt.
      const { text } = await ws.api(`/resources/content?uri=${encodeURIComponent(`${ROOT}wiki/notes/research-plan.md`)}&limit=6000`, { status: 200 });
      assert.ok(text.includes(`skill: "${SKILL_NAME}"`), text.slice(0, 800));
      assert.ok(text.includes(`skill_id: "${skill.id}"`), text.slice(0, 800));
      assert.match(text, /skill_hash: [0-9a-f]{12}\b/);
      await screenshot(page, "skill-summary-wide");
    },
  );

  ws.it(
    "a generated skill is a draft until Save; the Skills list duplicates a built-in and deletes the copy",
    async ({ page }) => {
      const before = await apiSkills(ws.api);
      const form = await openPlanCompile(page);
      await form.getByRole("button", { name: "Generate…" }).click();
      const gen = page.getByRole("dialog", { name: "Generate a skill" });
      await gen.waitFor();
      await gen.getByRole("textbox", { name: "What should the summaries be like?" }).fill("Meeting notes: decisions, owners and open questions.");
      await gen.getByRole("combobox", { name: "Model" }).selectOption("fake");
      await assertAxeClean(page, gen, "generate dialog");
      const generated = page.waitForResponse((r) => r.url().endsWith("/api/v1/knowledge-agent/skills/generate"));
      await gen.getByRole("button", { name: "Generate draft" }).click();
      const genRes = await generated;
      assert.equal(genRes.status(), 200);
      const genBody = await genRes.json();
      assert.ok(genBody.draft.name && genBody.draft.prompt, "the fake model drafted a name and a prompt");
      assert.equal(JSON.parse(genRes.request().postData()).sample_uri, PLAN, "the selected file is the sample");

      const draft = page.getByRole("dialog", { name: "New skill — generated draft" });
      await draft.waitFor();
      assert.equal(await draft.getByRole("textbox", { name: "Name" }).inputValue(), genBody.draft.name.trim());
      assert.equal(await draft.getByRole("textbox", { name: "Prompt" }).inputValue(), genBody.draft.prompt);
      assert.equal((await apiSkills(ws.api)).length, before.length, "nothing stored before Save");
      await draft.getByRole("button", { name: "Save" }).click();
      await draft.waitFor({ state: "detached" });
      const after1 = await apiSkills(ws.api);
      assert.equal(after1.length, before.length + 1);
      const saved = after1.find((s) => !before.some((b) => b.id === s.id));
      assert.equal(await form.getByRole("combobox", { name: "Skill" }).inputValue(), saved.id);

      await form.getByRole("button", { name: "Skills…" }).click();
      const list = page.getByRole("dialog", { name: "Skills" });
      await list.waitFor();
      await list.getByText(saved.name, { exact: true }).waitFor();
      await list.getByText(SKILL_NAME, { exact: true }).waitFor();
      await assertAxeClean(page, list, "skills list");
      await screenshot(page, "skills-list-wide");
      const builtin = after1.find((s) => s.builtin);
      // A built-in skill is named by its title, as the list shows it, not by its name.
      const title = await list.locator(`[data-skill-id="${builtin.id}"] strong`).innerText();
      assert.notEqual(title, builtin.name);
      await list.getByRole("button", { name: `Duplicate ${title}` }).click();
      const copy = page.getByRole("dialog", { name: `New skill — copy of ${title}` });
      await copy.waitFor();
      assert.equal(await copy.getByRole("textbox", { name: "Name" }).inputValue(), `${builtin.name} (copy)`);
      await copy.getByRole("button", { name: "Save" }).click();
      await copy.waitFor({ state: "detached" });
      await list.getByText(`${builtin.name} (copy)`, { exact: true }).waitFor();

      await list.getByRole("button", { name: `Delete ${builtin.name} (copy)` }).click();
      const confirm = page.getByRole("dialog", { name: `Delete ${builtin.name} (copy)?` });
      await confirm.getByRole("button", { name: "Delete" }).click();
      await confirm.waitFor({ state: "detached" });
      await list.getByText(`${builtin.name} (copy)`, { exact: true }).waitFor({ state: "detached" });
      const names = (await apiSkills(ws.api)).map((s) => s.name);
      assert.ok(!names.includes(`${builtin.name} (copy)`) && names.includes(saved.name));
      await list.getByRole("button", { name: "Close" }).click();
      await list.waitFor({ state: "detached" });
      // The picker follows: the copy is gone from it, the generated skill is there.
      const options = await form.getByRole("combobox", { name: "Skill" }).locator("option").allInnerTexts();
      assert.ok(options.includes(saved.name) && !options.some((o) => o.startsWith(`${builtin.name} (copy)`)), options.join(", "));
      await page.keyboard.press("Escape");
      await form.waitFor({ state: "detached" });
    },
  );
});
