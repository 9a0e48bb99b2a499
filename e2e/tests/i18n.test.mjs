// The UI in Simplified Chinese: a browser whose language is zh-CN gets the
// main screens in Chinese, with no raw key and none of the English strings
// the catalogues replace left on screen.

import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe } from "node:test";
import { screenshot, treeItem } from "../lib/browser.mjs";
import { ADMIN_PASSWORD, ADMIN_USER, E2E_DIR } from "../lib/server.mjs";
import { FAKE_LLM, withWorkspace } from "../lib/fixture.mjs";

const ROOT = `kb://users/${ADMIN_USER}/`;
const LOCALES = path.resolve(E2E_DIR, "../web/src/i18n/locales");

function leaves(obj, prefix = "") {
  return Object.entries(obj).flatMap(([k, v]) => (typeof v === "string" ? [[prefix + k, v]] : leaves(v, `${prefix}${k}.`)));
}

function catalogue(lng) {
  const out = new Map();
  for (const file of readdirSync(path.join(LOCALES, lng))) {
    const ns = file.replace(/\.json$/, "");
    for (const [k, v] of leaves(JSON.parse(readFileSync(path.join(LOCALES, lng, file), "utf8")))) out.set(`${ns}:${k}`, v);
  }
  return out;
}

const en = catalogue("en");
const zh = catalogue("zh-CN");
const zhOf = (key) => zh.get(key) ?? zh.get(key.replace(/_one$/, "_other"));

// The English sentences that must not show: each value without placeholders
// that Chinese words differently, long enough not to be a file name or a
// model's answer by chance (a word of six letters or more, or several words).
const englishValues = [...en]
  .filter(([key, v]) => !v.includes("{{") && v !== zhOf(key) && /[A-Za-z]/.test(v) && (/\s/.test(v.trim()) || v.length >= 6))
  .map(([key, v]) => ({ key, text: v.trim() }));
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** leftovers lists what of the English catalogue and which raw keys appear in text. */
function leftovers(text) {
  const found = [];
  for (const { key, text: v } of englishValues) {
    if (new RegExp(`(^|[^A-Za-z])${escape(v)}($|[^A-Za-z])`).test(text)) found.push(`${key} = ${JSON.stringify(v)}`);
  }
  for (const key of en.keys()) {
    const [ns, k] = key.split(":");
    const bare = k.replace(/_(one|other)$/, "");
    if (text.includes(`${ns}:${bare}`)) found.push(`raw key ${ns}:${bare}`);
    if (bare.includes(".") && new RegExp(`(^|[^\\w.])${escape(bare)}($|[^\\w.])`).test(text)) found.push(`raw key ${bare}`);
  }
  return found;
}

// What the server or the user wrote (model names, file names and text, the
// model's answer, tool results) is not the UI's to translate: it is taken out.
const CONTENT = "#agent-model, #compile-skill, select:has(option[value=\"fake\"]), option, .tree-name, .preview-scroll, .bubble, .answer, .tool-summary, .tool-result-summary, .tool-pre, .tool-target, code, .pick-list, .model-caps-name";

async function visibleText(page) {
  return page.evaluate((sel) => {
    // Hidden text is not in innerText: hide the content, read, show it again
    // (through the CSSOM, which the page's CSP allows).
    const els = [...document.querySelectorAll(sel)];
    const before = els.map((el) => el.style.visibility);
    for (const el of els) el.style.visibility = "hidden";
    const text = document.body.innerText;
    els.forEach((el, i) => (el.style.visibility = before[i]));
    return text;
  }, CONTENT);
}

async function assertChinese(page, screen, wants) {
  const text = await visibleText(page);
  for (const key of wants) {
    const want = zh.get(key);
    assert.ok(want, `${key} is in the Chinese catalogue`);
    assert.ok(text.includes(want), `${screen} shows ${key} = ${want}\n--- visible text:\n${text}`);
  }
  assert.deepEqual(leftovers(text), [], `${screen}: English or raw keys left\n--- visible text:\n${text}`);
}

describe("the UI in Chinese", { timeout: 120_000 }, () => {
  const ws = withWorkspace({ env: FAKE_LLM, locale: "zh-CN", signIn: false });

  ws.it(
    "the login page follows the browser's language",
    async ({ page }) => {
      await page.goto("/");
      await page.getByLabel(zh.get("auth:username")).waitFor();
      assert.equal(await page.evaluate(() => document.documentElement.lang), "zh-CN");
      await assertChinese(page, "login", ["auth:username", "auth:password", "auth:signIn"]);
      // A wrong password: the server's code is shown in Chinese.
      await page.getByLabel(zh.get("auth:username")).fill(ADMIN_USER);
      await page.getByLabel(zh.get("auth:password")).fill("not-the-password");
      await page.getByRole("button", { name: zh.get("auth:signIn") }).click();
      await page.getByRole("alert").filter({ hasText: zh.get("errors:invalid_credentials") }).waitFor();
      await screenshot(page, "i18n-login-zh");
    },
  );

  ws.it(
    "the workspace: tree, a file in the preview",
    async ({ page }) => {
      await page.getByLabel(zh.get("auth:password")).fill(ADMIN_PASSWORD);
      await page.getByRole("button", { name: zh.get("auth:signIn") }).click();
      await page.getByRole("tree", { name: zh.get("tree:files") }).waitFor();
      // Wait for what loads after sign-in: the tree's first folder and the models.
      await treeItem(page, `${ROOT}notes/`).waitFor();
      await page.getByText(zh.get("agent:welcome.ask")).waitFor();
      await assertChinese(page, "workspace", ["tree:files", "preview:selectFile", "agent:welcome.ask"]);
      await treeItem(page, `${ROOT}notes/`).click();
      await treeItem(page, `${ROOT}notes/research-plan.md`).click();
      await page.locator(".preview-scroll").filter({ hasText: /\S/ }).waitFor();
      await page.getByRole("button", { name: zh.get("preview:download") }).waitFor();
      await assertChinese(page, "preview", ["preview:download", "tree:files", "agent:input.send"]);
      await screenshot(page, "i18n-workspace-zh");
    },
  );

  ws.it(
    "a streamed answer with a tool card",
    async ({ page }) => {
      await treeItem(page, `${ROOT}notes/`).click();
      await page.locator(".scope-prefix", { hasText: /^notes\/$/ }).waitFor();
      const box = page.locator("textarea.chat-textarea");
      await box.fill("use ls on kb://me/notes/ please");
      await box.press("Enter");
      const msg = page.locator('.msg[data-role="assistant"]').last();
      await msg.locator('.tool-card[data-tool="ls"][data-status="ok"]').waitFor();
      await page.locator('.msg[data-role="assistant"][data-status="done"]').last().waitFor({ timeout: 15_000 });
      await msg.locator(".tool-card summary").click();
      await msg.locator(".tool-body").waitFor();
      assert.match(await msg.locator(".turn-status").innerText(), new RegExp(zh.get("agent:status.complete")));
      await assertChinese(page, "answer", ["agent:status.complete", "agent:tool.arguments", "agent:tool.result"]);
      await screenshot(page, "i18n-answer-zh");
    },
  );

  ws.it(
    "the compile dialog and the task center",
    async ({ page }) => {
      const box = page.locator("textarea.chat-textarea");
      await box.fill("compile");
      await box.press("Enter");
      const dialog = page.getByRole("dialog");
      // The executor and its settings are under the closed "Advanced".
      await dialog.getByText(zh.get("agent:compile.advanced"), { exact: true }).click();
      await dialog.getByRole("combobox", { name: zh.get("agent:compile.executor") }).waitFor();
      await dialog.getByRole("checkbox", { name: /research-plan\.md/ }).check();
      await assertChinese(page, "compile", ["agent:compile.executor", "agent:compile.effort", "agent:compile.budget", "agent:compile.skill", "agent:compile.advanced"]);
      await screenshot(page, "i18n-compile-zh");
      await dialog.getByRole("button", { name: zh.get("common:cancel") }).click();
      await dialog.waitFor({ state: "detached" });

      await page.getByRole("button", { name: zh.get("agent:taskCenter") }).click();
      const tasks = page.getByRole("dialog", { name: zh.get("agent:taskCenter") });
      await tasks.getByText(zh.get("agent:tasks.none")).waitFor();
      await assertChinese(page, "task center", ["agent:taskCenter", "agent:tasks.none", "common:close"]);
      await screenshot(page, "i18n-tasks-zh");
      await tasks.getByRole("button", { name: zh.get("common:close") }).click();
      await tasks.waitFor({ state: "detached" });
      // The one failed request is the wrong password of the first test.
      assert.deepEqual(page.consoleErrors.filter((e) => !/status of 401/.test(e)), []);
    },
  );

  ws.it(
    "tree search, the share dialog and the trash",
    async ({ page }) => {
      await treeItem(page, `${ROOT}notes/`).click();
      const search = page.getByRole("combobox", { name: /^搜索 / });
      await search.fill("research");
      await page.getByTestId("tree-search-count").filter({ hasText: /名称|结果|匹配/ }).waitFor();
      await assertChinese(page, "search", ["search:names", "search:mode.literal"]);
      await search.press("Escape");
      await search.fill("");

      await treeItem(page, `${ROOT}notes/`).click();
      await page.getByRole("button", { name: zh.get("tree:toolbar.share") }).click();
      const share = page.getByRole("dialog");
      await share.getByText(zh.get("share:whoHasAccess"), { exact: true }).first().waitFor();
      // The heading shows at once; "only you" once the shares have loaded.
      await share.getByText(zh.get("share:onlyYou")).waitFor();
      await assertChinese(page, "share", ["share:whoHasAccess", "share:owner", "share:onlyYou", "share:done"]);
      await share.getByRole("button", { name: zh.get("share:done") }).click();
      await share.waitFor({ state: "detached" });

      await page.getByRole("button", { name: zh.get("tree:toolbar.trash") }).click();
      const trash = page.getByRole("dialog", { name: zh.get("trash:title") });
      await trash.getByText(zh.get("trash:intro")).waitFor();
      await assertChinese(page, "trash", ["trash:intro", "trash:emptyTrash"]);
      await screenshot(page, "i18n-trash-zh");
      await trash.getByRole("button", { name: zh.get("common:close") }).click();
    },
  );
});
