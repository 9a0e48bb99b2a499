// Settings (issue 17): an API token created in the page works against the
// REST API until it is revoked; the password changes; the Check button
// shows the fake model's latency and a broken model's classified error;
// the language and theme switch and survive a reload; back and forward
// move between the sections.

import assert from "node:assert/strict";
import { createServer } from "node:http";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe } from "node:test";
import { axeViolations, blocking, formatViolations } from "../lib/axe.mjs";
import { loginThroughUI, screenshot } from "../lib/browser.mjs";
import { apiLogin } from "../lib/server.mjs";
import { FAKE_LLM, withWorkspace } from "../lib/fixture.mjs";
import { apiClient } from "../lib/api.mjs";

const USER = "carol";
const PASSWORD = "carol-Password-1";
const NEW_PASSWORD = "carol-Password-2";

/** a provider that refuses every key */
function startDenyingProvider() {
  const srv = createServer((req, res) => {
    req.resume();
    res.writeHead(401, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } }));
  });
  return new Promise((resolve) => srv.listen(0, "127.0.0.1", () => resolve(srv)));
}

/** a loopback port nothing listens on */
function deadPort() {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

describe("settings", { timeout: 180_000 }, () => {
  let server, denying;
  // The config names a provider that refuses every key and one on a port nobody listens on.
  async function providerEnv() {
    denying = await startDenyingProvider();
    const dead = await deadPort();
    const config = path.join(tmpdir(), `knowspace-settings-${process.pid}.yaml`);
    await writeFile(
      config,
      `models:
  - id: denied
    name: Denied provider
    profile: openai-compatible
    base_url: http://127.0.0.1:${denying.address().port}/v1
    api_key: sk-e2e-not-a-key
    context_window: 32768
    output_reserve: 2048
  - id: dead
    name: Dead provider
    profile: openai-compatible
    base_url: http://127.0.0.1:${dead}/v1
    api_key: sk-e2e-not-a-key
    context_window: 32768
    output_reserve: 2048
cli_profiles:
  - name: truthy
    argv: ["true"]
    env: [PATH]
`,
    );
    return { ...FAKE_LLM, KB_CONFIG: config };
  }
  const ws = withWorkspace({ env: providerEnv, seed: ({ api }) => api.createUser(USER, PASSWORD), user: USER, password: PASSWORD });
  before(() => ({ server } = ws));
  after(() => denying?.close());

  const api = (p, token, init) => apiClient(server.baseURL, { token }).raw(p, init);
  const nav = () => ws.page.getByRole("navigation", { name: "Settings sections" });

  ws.it(
    "the user menu opens Settings; sections have their own URL and back/forward move between them",
    async ({ page }) => {
      // The menu by keyboard: arrows move and wrap, End jumps, Enter picks.
      await page.getByTestId("user-menu-button").focus();
      await page.keyboard.press("Enter");
      const focusedItem = () => page.evaluate(() => document.activeElement?.textContent?.trim());
      const items = await page.getByRole("menuitem").allInnerTexts();
      assert.equal(await focusedItem(), "Settings");
      await page.keyboard.press("ArrowDown");
      assert.equal(await focusedItem(), items[1].trim());
      await page.keyboard.press("End");
      assert.equal(await focusedItem(), "Sign out");
      await page.keyboard.press("ArrowDown");
      assert.equal(await focusedItem(), "Settings");
      await page.keyboard.press("Enter");
      await page.getByRole("heading", { level: 2, name: "Account" }).waitFor();
      assert.equal(new URL(page.url()).pathname, "/settings");
      assert.equal(await nav().getByRole("link", { name: "Account" }).getAttribute("aria-current"), "page");
      await nav().getByRole("link", { name: "API tokens" }).click();
      await page.getByRole("heading", { level: 2, name: "API tokens" }).waitFor();
      assert.equal(new URL(page.url()).pathname, "/settings/tokens");
      assert.equal(await nav().getByRole("link", { name: "API tokens" }).getAttribute("aria-current"), "page");
      assert.equal(await nav().getByRole("link", { name: "Account" }).getAttribute("aria-current"), null);
      await page.goBack();
      await page.getByRole("heading", { level: 2, name: "Account" }).waitFor();
      await page.goForward();
      await page.getByRole("heading", { level: 2, name: "API tokens" }).waitFor();
      // A section URL loads straight from the server (the SPA fallback).
      await page.goto("/settings/models");
      await page.getByRole("heading", { level: 2, name: "Models" }).waitFor();
      // And back to the files.
      await nav().getByRole("link", { name: "Back to files" }).click();
      await page.getByRole("tree", { name: "Files" }).waitFor();
    },
  );

  ws.it(
    "a token created in Settings works with the REST API until it is revoked, then answers 401",
    async ({ page }) => {
      await page.goto("/settings/tokens");
      await page.getByLabel("Name").fill("ci script");
      await page.getByLabel("Expires").selectOption({ label: "In 30 days" });
      await page.getByRole("button", { name: "Create token" }).click();
      const secret = (await page.getByTestId("token-secret").textContent()).trim();
      assert.match(secret, /^ks_/);
      await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
      await page.getByTestId("new-token").getByRole("button", { name: "Copy" }).click();
      await page.getByTestId("new-token").getByRole("button", { name: "Copied" }).waitFor();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);

      const row = page.locator('tr[data-token="ci script"]');
      await row.waitFor();
      assert.match(await row.textContent(), /Never used/);
      const me = await api("/auth/me", secret);
      assert.equal(me.status, 200);
      assert.equal((await me.json()).username, USER);
      // The list shows the use once it is read again.
      await nav().getByRole("link", { name: "Account" }).click();
      await nav().getByRole("link", { name: "API tokens" }).click();
      await row.waitFor();
      await page.waitForFunction(() => !document.querySelector('tr[data-token="ci script"]')?.textContent?.includes("Never used"));
      const cells = await row.locator("td").allTextContents();
      assert.equal(cells.length, 6);
      assert.notEqual(cells[1], "");
      assert.notEqual(cells[3], "Never", "a 30-day token shows its expiry date");
      assert.equal(cells[4], "Whole workspace", "a token without a folder sees everything");
      await screenshot(page, "settings-tokens");

      await row.getByRole("button", { name: "Revoke token ci script" }).click();
      const confirm = page.getByRole("dialog", { name: "Revoke token" });
      await confirm.getByRole("button", { name: "Revoke" }).click();
      await row.waitFor({ state: "detached" });
      await page.getByText("No API tokens yet.").waitFor();
      const after = await api("/auth/me", secret);
      assert.equal(after.status, 401);
    },
  );

  ws.it(
    "Check shows the fake model's latency and the broken models' classified errors",
    async ({ page }) => {
      await page.goto("/settings/models");
      const row = (id) => page.locator(`tr[data-check="${id}"]`);
      await row("model:fake").waitFor();
      for (const [id, want] of [
        ["model:fake", /Works · \d+ ms/],
        ["model:denied", /Failed after \d+ ms:\s*llm_auth\s+the provider rejected the API key/],
        ["model:dead", /Failed after \d+ ms:\s*llm_connect_error\s+cannot reach the provider/],
        ["cli:truthy", /Works · \d+ ms/],
      ]) {
        await row(id).getByRole("button", { name: /^Check / }).click();
        await row(id).locator(".check-result").waitFor({ timeout: 25_000 });
        const text = (await row(id).locator(".check-cell").textContent()).trim();
        assert.match(text, want, `${id}: ${text}`);
        assert.doesNotMatch(text, /sk-e2e|127\.0\.0\.1/, `${id} leaks configuration: ${text}`);
      }
      await screenshot(page, "settings-models");
    },
  );

  ws.it(
    "switching the language to 简体中文 changes the page's strings and survives a reload",
    async ({ page }) => {
      await page.goto("/settings/appearance");
      await page.getByRole("radio", { name: "简体中文" }).check();
      await page.getByRole("heading", { level: 2, name: "外观" }).waitFor();
      await page.getByRole("navigation", { name: "设置分区" }).getByRole("link", { name: "API 令牌" }).waitFor();
      assert.equal(await page.evaluate(() => document.documentElement.lang), "zh-CN");
      await page.reload();
      await page.getByRole("heading", { level: 2, name: "外观" }).waitFor();
      await page.getByRole("heading", { level: 1, name: "设置" }).waitFor();
      assert.ok(await page.getByRole("radio", { name: "简体中文" }).isChecked());
      await screenshot(page, "settings-appearance-zh");
      await page.getByRole("radio", { name: "English" }).check();
      await page.getByRole("heading", { level: 2, name: "Appearance" }).waitFor();
    },
  );

  ws.it(
    "the theme follows the system, or a remembered Light or Dark that wins over it",
    async ({ page }) => {
      const bg = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
      const DARK = "rgb(22, 24, 28)";
      const LIGHT = "rgb(255, 255, 255)";
      await page.goto("/settings/appearance");
      await page.emulateMedia({ colorScheme: "dark" });
      assert.ok(await page.getByRole("radio", { name: "System" }).nth(1).isChecked());
      assert.equal(await bg(), DARK, "System follows a dark OS");
      await page.getByRole("radio", { name: "Light" }).check();
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "light");
      assert.equal(await bg(), LIGHT, "Light wins over a dark OS");
      await page.emulateMedia({ colorScheme: "light" });
      await page.getByRole("radio", { name: "Dark" }).check();
      assert.equal(await bg(), DARK, "Dark wins over a light OS");
      await page.reload();
      await page.getByRole("heading", { level: 2, name: "Appearance" }).waitFor();
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "dark");
      assert.equal(await bg(), DARK, "Dark is remembered");
      await page.getByRole("radio", { name: "System" }).nth(1).check();
      assert.equal(await page.evaluate(() => document.documentElement.hasAttribute("data-theme")), false);
      assert.equal(await bg(), LIGHT);
    },
  );

  ws.it(
    "every section passes axe in light and dark, with the System, Light and Dark themes",
    async ({ page }) => {
      for (const section of ["account", "activity", "tokens", "models", "appearance"]) {
        await page.goto(`/settings/${section}`);
        await page.getByRole("heading", { level: 2 }).waitFor();
        for (const [colorScheme, theme] of [["light", null], ["dark", null], ["dark", "light"], ["light", "dark"]]) {
          await page.emulateMedia({ colorScheme });
          await page.evaluate((t) => (t ? document.documentElement.setAttribute("data-theme", t) : document.documentElement.removeAttribute("data-theme")), theme);
          const bad = blocking(await axeViolations(page));
          assert.equal(bad.length, 0, `settings/${section} (${colorScheme}, theme ${theme ?? "system"}):\n${formatViolations(bad)}`);
        }
      }
      await page.emulateMedia({ colorScheme: "light" });
      await page.evaluate(() => document.documentElement.removeAttribute("data-theme"));
    },
  );

  ws.it(
    "the password changes with clear errors, and only the new one signs in",
    async ({ page }) => {
      await page.goto("/settings/account");
      const form = page.locator("form");
      await form.getByLabel("Current password").fill(PASSWORD);
      await form.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
      await form.getByLabel("Confirm new password").fill(NEW_PASSWORD + "x");
      await form.getByRole("button", { name: "Change password" }).click();
      await page.getByRole("alert").getByText("The new password and its confirmation differ.").waitFor();
      await form.getByLabel("Current password").fill("not-my-password");
      await form.getByLabel("Confirm new password").fill(NEW_PASSWORD);
      await form.getByRole("button", { name: "Change password" }).click();
      const wrong = page.getByRole("alert");
      await page.waitForFunction(() => !document.querySelector('[role="alert"]')?.textContent?.includes("differ"));
      assert.notEqual((await wrong.textContent()).trim(), "");
      await form.getByLabel("Current password").fill(PASSWORD);
      await form.getByRole("button", { name: "Change password" }).click();
      await page.getByRole("status").getByText(/Password changed/).waitFor();
      assert.equal(await page.getByRole("alert").count(), 0);
      await assert.rejects(apiLogin(server.baseURL, USER, PASSWORD), /401/);
      const fresh = await apiLogin(server.baseURL, USER, NEW_PASSWORD);
      assert.equal((await api("/auth/me", fresh)).status, 200);

      // Sign out everywhere ends this page's session and the other one.
      await page.getByRole("button", { name: "Sign out everywhere" }).click();
      await page.getByRole("button", { name: "Sign in" }).waitFor();
      assert.equal((await api("/auth/me", fresh)).status, 401);
      await loginThroughUI(page, USER, NEW_PASSWORD);
    },
  );
});
