// Debian's Chromium driven by playwright-core, plus helpers shared by the tests.

import { mkdir } from "node:fs/promises";
import path from "node:path";
import { chromium } from "playwright-core";
import { ADMIN_PASSWORD, ADMIN_USER, E2E_DIR } from "./server.mjs";

export const SCREENSHOT_DIR = path.join(E2E_DIR, "screenshots");

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** launchBrowser starts headless Chromium (CHROMIUM_PATH overrides /usr/bin/chromium). */
export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

export const WIDE = { width: 1400, height: 900 };
/** the phone of issue 7's browser tests */
export const NARROW = { width: 390, height: 844 };
/** a smaller phone, checked where layout is tight */
export const NARROW_SMALL = { width: 375, height: 812 };

/**
 * newPage opens a fresh context (own localStorage) at the app's base URL. The
 * tests select by English text, so the browser's language is English unless
 * a test asks for another (locale "zh-CN" for the Chinese UI).
 */
export async function newPage(browser, baseURL, viewport = WIDE, { locale = "en-US" } = {}) {
  const context = await browser.newContext({
    baseURL,
    viewport,
    acceptDownloads: true,
    locale,
    extraHTTPHeaders: { "Accept-Language": locale },
  });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  const consoleErrors = [];
  page.on("pageerror", (err) => consoleErrors.push(String(err)));
  page.on("console", (msg) => {
    if (msg.type() === "error") consoleErrors.push(msg.text());
  });
  page.consoleErrors = consoleErrors;
  return page;
}

function safeName(s) {
  return s.replace(/[^\p{L}\p{N}._-]+/gu, "_").slice(0, 120);
}

/** screenshot saves the page to e2e/screenshots/<name>.png. */
export async function screenshot(page, name) {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${safeName(name)}.png`);
  await page.screenshot({ path: file, fullPage: false }).catch(() => {});
  return file;
}

/**
 * shotOnFailure wraps a test body: when it throws, the current page is saved
 * to e2e/screenshots/FAILED-<test name>.png before the error goes on.
 */
export function shotOnFailure(getPage, body) {
  return async (t) => {
    try {
      await body(t);
    } catch (err) {
      const page = getPage();
      if (page) {
        const file = await screenshot(page, `FAILED-${t.name}`);
        console.error(`# screenshot: ${file}`);
        if (page.consoleErrors?.length) console.error(`# browser console errors:\n${page.consoleErrors.join("\n")}`);
        await closeDialogs(page);
      }
      throw err;
    }
  };
}

/**
 * closeDialogs presses Escape until no modal is open, so a test that failed
 * with a dialog up does not fail the next tests on the same page too.
 */
export async function closeDialogs(page) {
  for (let i = 0; i < 5; i++) {
    const open = await page.locator("dialog[open]").count().catch(() => 0);
    if (open === 0) return;
    await page.keyboard.press("Escape").catch(() => {});
    await page.waitForTimeout(100);
  }
}

/** loginThroughUI fills the login form and waits for the tree. */
export async function loginThroughUI(page, username = ADMIN_USER, password = ADMIN_PASSWORD) {
  await page.goto("/");
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("tree", { name: "Files" }).waitFor();
}

/** treeItem finds a row of the file tree by its URI. */
export function treeItem(page, uri) {
  return page.locator(`[role="treeitem"][data-uri="${uri.replaceAll('"', '\\"')}"]`);
}

/**
 * newFolder names a new folder in the tree's New folder dialog and presses
 * Create; it returns the dialog, which closes once the folder is made.
 */
export async function newFolder(page, name) {
  await page.getByRole("button", { name: "New folder" }).click();
  const dialog = page.getByRole("dialog", { name: "New folder" });
  await dialog.getByRole("textbox").fill(name);
  await dialog.getByRole("button", { name: "Create" }).click();
  return dialog;
}

/** preview is the middle panel's content area. */
export function previewContent(page) {
  return page.locator(".preview-scroll");
}
