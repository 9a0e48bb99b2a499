// A walk through the main screens in Simplified Chinese that looks for any
// English word the UI itself wrote: every visible text node, and the title,
// aria-label and placeholder of visible elements. Names (the product, model
// ids, protocols), code and what the user or the model wrote are allowed.
// Every offender is printed with its element so it can be found and fixed.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe } from "node:test";
import { treeItem } from "../lib/browser.mjs";
import { ADMIN_PASSWORD, ADMIN_USER, E2E_DIR } from "../lib/server.mjs";
import { FAKE_LLM, withWorkspace } from "../lib/fixture.mjs";

const ROOT = `kb://users/${ADMIN_USER}/`;
const zh = (ns) => JSON.parse(readFileSync(path.resolve(E2E_DIR, `../web/src/i18n/locales/zh-CN/${ns}.json`), "utf8"));
const auth = zh("auth");

// Names that stay as they are in Chinese (GLOSSARY.md): the product, tools,
// protocols, keys on the keyboard, the sample workspace's folders.
const NAMES = new Set(
  [
    "Knowspace", "KnowAgent", "MCP", "API", "REST", "URL", "PDF", "OCR", "JSON", "Markdown", "SSE", "OpenAI",
    "Claude", "Code", "Cursor", "VS", "Codex", "WebDAV", "Ollama", "CLI", "LLM", "UTF", "token",
    "Authorization", "Bearer", "English", "CSV", "UTC",
    // KnowAgent's tools, named as the model calls them.
    "read", "search",
    "Ctrl", "Shift", "Enter", "Del", "Esc",
    "fake", ADMIN_USER, "notes", "archive", "docs", "blobs", "wiki",
  ].map((w) => w.toLowerCase()),
);

// The fake models' names and provider kind, as the server is configured.
const CONFIGURED = ['Fake LLM (tools; say "use ls")', "Fake LLM (text only)", "openai-compatible"];

// What the user, the model or a file wrote, and code, is not the UI's text;
// nor are a tool's name and search mode, which the model passes.
const CONTENT = "pre, code, kbd, .tree-name, .preview-scroll, .bubble, .answer, .tool-pre, .tool-target, .tool-name, .tool-mode, .tool-snippet";

/** latinWords lists every visible English word the UI shows, with where. */
async function latinWords(page) {
  return page.evaluate(([content, configured]) => {
    const found = [];
    const where = (el) => {
      const cls = [...el.classList].slice(0, 2).map((c) => `.${c}`).join("");
      const id = el.id ? `#${el.id}` : "";
      const role = el.getAttribute("role") ? `[role=${el.getAttribute("role")}]` : "";
      return `<${el.tagName.toLowerCase()}${id}${cls}${role}>`;
    };
    const strip = (s) =>
      configured
        .reduce((acc, name) => acc.split(name).join(" "), s)
        .replace(/kb:\/\/\S*/g, " ")
        .replace(/https?:\/\/\S*/g, " ")
        .replace(/\S+@\S+/g, " ")
        // file names: word.ext
        .replace(/[\w.-]+\.[A-Za-z0-9]{1,5}\b/g, " ")
        // paths: a/b/
        .replace(/[\w.-]+\/[\w./-]*/g, " ");
    const add = (text, el, what) => {
      for (const m of strip(text).matchAll(/[A-Za-z]{3,}/g)) found.push({ word: m[0], el: where(el) + what, text: text.trim().slice(0, 80) });
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || el.closest(content) || el.closest("option, script, style")) continue;
      if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
      add(n.nodeValue, el, "");
    }
    for (const el of document.body.querySelectorAll("*")) {
      if (el.closest(content) || !el.checkVisibility()) continue;
      for (const a of ["title", "aria-label", "placeholder"]) {
        // A tree row's tooltip is the file's summary, which the model wrote.
        if (a === "title" && el.matches(".tree-row")) continue;
        const v = el.getAttribute(a);
        if (v) add(v, el, `@${a}`);
      }
      if (el instanceof HTMLSelectElement && el.selectedOptions[0]) add(el.selectedOptions[0].text, el, " selected option");
    }
    // A space between two Chinese words is an inserted value glued with spaces.
    const text = document.body.innerText;
    for (const m of text.matchAll(/[\u4e00-\u9fff\uff01-\uff1f\u3001\u3002][ \u00a0][\u4e00-\u9fff]/g)) {
      found.push({ word: "(space)", el: "<body>", text: text.slice(Math.max(0, m.index - 20), m.index + 20).replace(/\n/g, " ") });
    }
    return found;
  }, [CONTENT, CONFIGURED]);
}

// One line per element and text, on the first screen that shows it.
const offenders = new Map();

async function check(page, screen) {
  // Let what loads after the screen opens settle.
  await page.waitForLoadState("networkidle").catch(() => {});
  for (const f of await latinWords(page)) {
    const w = f.word.toLowerCase();
    if (NAMES.has(w)) continue;
    const at = `${f.el} "${f.text}"`;
    if (!offenders.has(at)) offenders.set(at, { screen, words: new Set() });
    offenders.get(at).words.add(f.word);
  }
}

const report = () => [...offenders].map(([at, { screen, words }]) => `${screen}: ${[...words].join(", ")} in ${at}`);

describe("the main screens in Chinese, word by word", { timeout: 180_000 }, () => {
  const ws = withWorkspace({ env: FAKE_LLM, locale: "zh-CN", signIn: false });

  ws.it("workspace, answer, compile, tasks, settings and admin show no English", async ({ page }) => {
    await page.goto("/");
    await page.getByLabel(auth.username).fill(ADMIN_USER);
    await page.getByLabel(auth.password).fill(ADMIN_PASSWORD);
    await page.getByRole("button", { name: auth.signIn }).click();
    await page.getByRole("tree").waitFor();
    await treeItem(page, `${ROOT}notes/`).waitFor();
    await page.locator(".welcome .examples").waitFor();
    await check(page, "welcome");
    await treeItem(page, `${ROOT}notes/`).click();
    await page.locator(".scope-prefix", { hasText: /^notes\/$/ }).waitFor();
    await check(page, "welcome in a folder");
    await treeItem(page, `${ROOT}notes/research-plan.md`).click();
    await page.locator(".preview-scroll").filter({ hasText: /\S/ }).waitFor();
    await check(page, "workspace with a file");

    const box = page.locator("textarea.chat-textarea");
    await box.fill("搜索 plan");
    await box.press("Enter");
    const msg = page.locator('.msg[data-role="assistant"]').last();
    await msg.locator('.tool-card[data-status="ok"]').first().waitFor({ timeout: 15_000 });
    await page.locator('.msg[data-role="assistant"][data-status="done"]').last().waitFor({ timeout: 15_000 });
    await msg.locator(".tool-card summary").first().click();
    await msg.locator(".tool-body").first().waitFor();
    await check(page, "answer with tool card");

    await treeItem(page, `${ROOT}notes/`).click();
    await box.fill("/compile");
    await box.press("Enter");
    const form = page.getByRole("dialog");
    await form.getByRole("checkbox", { name: /research-plan\.md/ }).check();
    await check(page, "compile dialog");
    await form.getByRole("combobox").first().selectOption("fake").catch(() => {});
    await form.locator("button[type=submit]").click();
    await form.getByTestId("compile-result").waitFor();
    await check(page, "compile queued");
    await page.keyboard.press("Escape");
    await form.waitFor({ state: "detached" });

    await page.locator("button.task-center-button, [data-testid=task-center-button]").or(page.getByRole("button", { name: /^任务中心/ })).first().click();
    const tasks = page.getByRole("dialog");
    await tasks.locator("[data-job-state]").first().waitFor();
    await check(page, "task center (running)");
    await tasks.locator('[data-job-state="succeeded"]').first().waitFor({ timeout: 30_000 });
    await check(page, "task center (done)");
    await page.keyboard.press("Escape");

    for (const section of ["account", "activity", "tokens", "connect", "models", "appearance"]) {
      await page.goto(`/settings/${section}`);
      await page.getByRole("navigation").first().waitFor();
      await check(page, `settings/${section}`);
    }
    for (const section of ["users", "tokens", "jobs", "groups", "models", "usage", "audit", "overview"]) {
      await page.goto(`/admin/${section}`);
      await page.getByRole("navigation").first().waitFor();
      await check(page, `admin/${section}`);
    }
    assert.deepEqual(report(), [], `English left on the Chinese screens:\n${report().join("\n")}`);
  });

  ws.it("skills, sharing, trash and the phone width show no English", async ({ page }) => {
    const box = page.locator("textarea.chat-textarea");
    await page.goto("/");
    await treeItem(page, `${ROOT}notes/`).click();
    await page.locator(".scope-prefix", { hasText: /^notes\/$/ }).waitFor();

    // The skills list, from the compile dialog.
    await box.fill("/compile");
    await box.press("Enter");
    const form = page.getByRole("dialog");
    await form.getByRole("button", { name: zh("agent").compile.skills }).click();
    const skills = page.getByRole("dialog", { name: zh("skills").list.title });
    await skills.locator("[data-skill-id]").first().waitFor();
    await check(page, "skills");
    await page.keyboard.press("Escape");
    await skills.waitFor({ state: "detached" });
    await page.keyboard.press("Escape");
    await form.waitFor({ state: "detached" });

    // The share dialog of a folder.
    await treeItem(page, `${ROOT}notes/`).click();
    await page.getByRole("button", { name: zh("tree").toolbar.share, exact: true }).click();
    const share = page.getByRole("dialog", { name: zh("share").title.replace("{{name}}", "notes") });
    await share.waitFor();
    await page.waitForLoadState("networkidle").catch(() => {});
    await check(page, "share dialog");
    await page.keyboard.press("Escape");
    await share.waitFor({ state: "detached" });

    // The trash, holding a deleted file.
    await ws.api.upload(`${ROOT}notes/`, { "draft.md": "# Draft\n" });
    await ws.api(`/resources?uri=${encodeURIComponent(`${ROOT}notes/draft.md`)}`, { method: "DELETE", status: [200, 204] });
    await page.getByRole("button", { name: zh("tree").toolbar.trash, exact: true }).click();
    const trash = page.getByRole("dialog", { name: zh("trash").title });
    await trash.getByText("draft.md").first().waitFor();
    await check(page, "trash");
    await page.keyboard.press("Escape");
    await trash.waitFor({ state: "detached" });

    // A phone: each panel of the tab bar.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/");
    const tabs = page.getByRole("tablist", { name: zh("layout").panels });
    await tabs.waitFor();
    await treeItem(page, `${ROOT}notes/`).waitFor();
    await check(page, "phone: files");
    const notes = treeItem(page, `${ROOT}notes/`);
    if ((await notes.getAttribute("aria-expanded")) !== "true") await notes.click();
    await treeItem(page, `${ROOT}notes/research-plan.md`).click();
    await page.locator(".preview-scroll").filter({ hasText: /\S/ }).waitFor();
    await check(page, "phone: preview");
    await tabs.getByRole("tab", { name: "KnowAgent" }).click();
    await box.waitFor();
    await check(page, "phone: KnowAgent");
    assert.deepEqual(report(), [], `English left on the Chinese screens:\n${report().join("\n")}`);
  });
});
