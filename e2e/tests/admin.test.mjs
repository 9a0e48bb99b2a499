// Admin (issue 17): an admin creates and disables a user who then cannot
// sign in, resets a password and changes a role, revokes any user's token,
// cancels any user's job and reads the overview; a non-admin never sees the
// admin entries and gets 403 from every admin endpoint.

import assert from "node:assert/strict";
import { before, describe } from "node:test";
import { axeViolations, blocking, formatViolations } from "../lib/axe.mjs";
import { screenshot } from "../lib/browser.mjs";
import { apiLogin } from "../lib/server.mjs";
import { FAKE_LLM, withWorkspace } from "../lib/fixture.mjs";
import { apiClient } from "../lib/api.mjs";

const MEMBER = "dave";
const MEMBER_PASSWORD = "dave-Password-1";

describe("admin", { timeout: 180_000 }, () => {
  // No workers: compile jobs stay queued for the admin to cancel.
  const ws = withWorkspace({
    env: { ...FAKE_LLM, KB_WORKERS: "0" },
    page: false,
    seed: ({ api }) => api.createUser(MEMBER, MEMBER_PASSWORD),
  });
  let server, admin;
  before(async () => {
    ({ server } = ws);
    admin = await ws.api.token();
  });

  const call = (method, p, token, body) => apiClient(server.baseURL, { token }).raw(p, { method, json: body });
  const canLogin = (user, password) =>
    apiLogin(server.baseURL, user, password).then(
      () => true,
      () => false,
    );
  const nav = () => ws.current().getByRole("navigation", { name: "Admin sections" });

  ws.it(
    "a non-admin never sees the admin entries, is told /admin is not allowed, and gets 403 from the admin endpoints",
    async () => {
      const page = await ws.open({ user: MEMBER, password: MEMBER_PASSWORD });
      await page.getByTestId("user-menu-button").click();
      const menu = page.getByRole("menu", { name: "Account" });
      await menu.getByRole("menuitem", { name: "Settings" }).waitFor();
      assert.equal(await menu.getByRole("menuitem", { name: "Admin" }).count(), 0);
      assert.equal(await menu.getByRole("menuitem", { name: "Groups" }).count(), 0);
      await page.keyboard.press("Escape");

      await page.goto("/admin/users");
      await page.getByTestId("admin-forbidden").getByText(/not allowed/).waitFor();
      assert.equal(await page.getByRole("table").count(), 0);
      assert.equal(await nav().getByRole("link", { name: "Users" }).count(), 0);

      const token = await page.evaluate(() => localStorage.getItem("knowspace.token"));
      assert.ok(token, "the page's session token");
      for (const [method, p, body] of [
        ["GET", "/admin/users"],
        ["POST", "/admin/users", { username: "mallory", password: "mallory-Password-1" }],
        ["PATCH", "/admin/users/1", { disabled: true }],
        ["GET", "/admin/tokens"],
        ["DELETE", "/admin/tokens/1"],
        ["GET", "/admin/jobs"],
        ["POST", "/admin/jobs/1/cancel"],
        ["GET", "/admin/overview"],
        ["GET", "/admin/groups"],
        ["GET", "/admin/models"],
        ["POST", "/admin/models", { id: "m", profile: "openai-compatible", base_url: "http://127.0.0.1:1/v1", context_window: 8192, output_reserve: 1024 }],
        ["POST", "/admin/models/check", { id: "m" }],
        ["PATCH", "/admin/models/m", { disabled: true }],
        ["DELETE", "/admin/models/m"],
      ]) {
        const res = await call(method, p, token, body);
        assert.equal(res.status, 403, `${method} ${p}`);
        assert.equal((await res.json()).error.code, "admin_only", `${method} ${p}`);
      }
      await page.context().close();
    },
  );

  ws.it(
    "the admin creates a user, disables them (who then cannot sign in), enables them, resets a password and changes a role",
    async () => {
      const page = await ws.open();
      await page.getByTestId("user-menu-button").click();
      await page.getByRole("menuitem", { name: "Admin" }).click();
      await page.getByRole("heading", { level: 2, name: "Users" }).waitFor();
      assert.equal(await nav().getByRole("link", { name: "Users" }).getAttribute("aria-current"), "page");

      const form = page.locator("form");
      await form.getByRole("button", { name: "Create user" }).click();
      await page.getByRole("alert").getByText("Enter a username and a password.").waitFor();
      await form.getByLabel("Username").fill("erin");
      await form.getByLabel("Password").fill("erin-Password-1");
      await form.getByRole("button", { name: "Create user" }).click();
      await page.getByRole("status").getByText("Created user erin.").waitFor();
      const erin = page.locator('tr[data-user="erin"]');
      await erin.waitFor();
      assert.ok(await canLogin("erin", "erin-Password-1"), "a new user signs in");

      await erin.getByRole("button", { name: "Disable erin" }).click();
      await erin.getByText("Disabled").waitFor();
      assert.equal(await canLogin("erin", "erin-Password-1"), false, "a disabled user cannot sign in");
      // Nor through the page.
      const other = await ws.newPage();
      await other.goto("/");
      await other.getByLabel("Username").fill("erin");
      await other.getByLabel("Password").fill("erin-Password-1");
      await other.getByRole("button", { name: "Sign in" }).click();
      await other.getByRole("alert").waitFor();
      assert.equal(await other.getByRole("tree").count(), 0);
      await other.context().close();
      await erin.getByRole("button", { name: "Enable erin" }).click();
      await erin.getByText("Active").waitFor();
      assert.ok(await canLogin("erin", "erin-Password-1"));

      await erin.getByRole("button", { name: "Reset password for erin" }).click();
      const dialog = page.getByRole("dialog", { name: "Reset the password of erin" });
      await dialog.getByLabel("New password").fill("erin-Password-2");
      await dialog.getByRole("button", { name: "Reset password" }).click();
      await dialog.waitFor({ state: "detached" });
      await page.getByRole("status").getByText("The password of erin was reset.").waitFor();
      assert.equal(await canLogin("erin", "erin-Password-1"), false);
      assert.ok(await canLogin("erin", "erin-Password-2"));

      await erin.getByRole("combobox", { name: "Role of erin" }).selectOption("admin");
      await page.getByRole("status").getByText("erin is now: Administrator.").waitFor();
      const users = (await (await call("GET", "/admin/users", admin)).json()).items;
      assert.equal(users.find((u) => u.username === "erin").role, "admin");
      // The admin's own row cannot disable or demote itself.
      const self = page.locator('tr[data-user="admin"]');
      assert.ok(await self.getByRole("button", { name: "Disable admin" }).isDisabled());
      await screenshot(page, "admin-users");
    },
  );

  ws.it(
    "the admin revokes another user's token from the Tokens section",
    async () => {
      const page = ws.current();
      const dave = await apiLogin(server.baseURL, MEMBER, MEMBER_PASSWORD);
      const created = await (await call("POST", "/auth/tokens", dave, { name: "daves-script" })).json();
      assert.equal((await call("GET", "/auth/me", created.token)).status, 200);
      await nav().getByRole("link", { name: "Tokens" }).click();
      const row = page.locator('tr[data-token="daves-script"]');
      await row.waitFor();
      assert.match(await row.textContent(), new RegExp(MEMBER));
      await row.getByRole("button", { name: `Revoke token daves-script of ${MEMBER}` }).click();
      await page.getByRole("dialog", { name: "Revoke token" }).getByRole("button", { name: "Revoke" }).click();
      await row.waitFor({ state: "detached" });
      assert.equal((await call("GET", "/auth/me", created.token)).status, 401);
    },
  );

  ws.it(
    "the admin filters every user's jobs by state and user and cancels one; the overview counts them",
    async () => {
      const page = ws.current();
      const dave = await apiLogin(server.baseURL, MEMBER, MEMBER_PASSWORD);
      await apiClient(server.baseURL, { token: dave }).upload("kb://me/", { "a.md": "alpha", "b.md": "beta" });
      await ws.api.upload("kb://me/", { "mine.md": "mine" });
      for (const [token, uris] of [
        [dave, ["kb://me/a.md", "kb://me/b.md"]],
        [admin, ["kb://me/mine.md"]],
      ]) {
        const res = await call("POST", "/knowledge-agent/compile", token, { uris, executor: "llm", model_id: "fake" });
        assert.equal(res.status, 200, await res.text());
      }
      await nav().getByRole("link", { name: "Jobs" }).click();
      await page.getByRole("heading", { level: 2, name: "Jobs of every user" }).waitFor();
      const rows = page.locator("tr[data-job]");
      await page.waitForFunction(() => document.querySelectorAll("tr[data-job]").length === 3);
      await page.getByLabel("User", { exact: true }).selectOption({ label: MEMBER });
      await page.getByLabel("State", { exact: true }).selectOption({ label: "Queued" });
      await page.waitForFunction(() => document.querySelectorAll("tr[data-job]").length === 2);
      // A file is named by its owner and path, its address only in the tooltip.
      for (const text of await rows.allTextContents()) assert.match(text, new RegExp(`^\\d+${MEMBER}${MEMBER}/[^ ]+\\.md`));
      for (const title of await rows.locator("td.ellipsis").evaluateAll((tds) => tds.map((td) => td.title))) assert.match(title, new RegExp(`^kb://users/${MEMBER}/`));
      const first = rows.first();
      const id = await first.getAttribute("data-job");
      await first.getByRole("button", { name: `Cancel job ${id} of ${MEMBER}` }).click();
      await page.getByRole("status").getByText(`Asked job ${id} to stop.`).waitFor();
      // Filtered on queued, the cancelled job leaves the list.
      await page.waitForFunction(() => document.querySelectorAll("tr[data-job]").length === 1);
      const job = await (await call("GET", `/jobs/${id}`, dave)).json();
      assert.equal(job.state, "cancelled");
      await page.getByLabel("State", { exact: true }).selectOption({ label: "Cancelled" });
      await page.locator(`tr[data-job="${id}"][data-state="cancelled"]`).waitFor();
      await screenshot(page, "admin-jobs");

      await nav().getByRole("link", { name: "Overview" }).click();
      const stat = (id) => page.locator(`[data-stat="${id}"] dd`);
      await stat("users").waitFor();
      const o = await (await call("GET", "/admin/overview", admin)).json();
      assert.equal(o.users.total, 3);
      assert.equal(o.jobs.queued, 2);
      assert.equal(o.jobs.cancelled, 1);
      assert.equal(await stat("users").textContent(), "3");
      assert.equal(await stat("admins").textContent(), "2");
      assert.equal(await stat("jobs-queued").textContent(), "2");
      assert.equal(await stat("jobs-cancelled").textContent(), "1");
      assert.equal(await stat("files").textContent(), o.files.toLocaleString("en"));
      await screenshot(page, "admin-overview");
    },
  );

  ws.it(
    "the Groups screen is a section of the Admin page",
    async () => {
      const page = ws.current();
      await nav().getByRole("link", { name: "Groups" }).click();
      await page.getByRole("heading", { level: 2, name: "Groups" }).waitFor();
      await page.getByLabel("New group").fill("team");
      await page.getByRole("button", { name: "Create", exact: true }).click();
      await page.locator('[data-group="team"]').waitFor();
      await page.getByRole("status").getByText("Created group team.").waitFor();
      assert.equal(new URL(page.url()).pathname, "/admin/groups");
    },
  );

  ws.it(
    "every admin section passes axe in light and dark",
    async () => {
      const page = ws.current();
      for (const section of ["users", "tokens", "jobs", "groups", "audit", "overview"]) {
        await page.goto(`/admin/${section}`);
        await page.getByRole("heading", { level: 2 }).waitFor();
        await page.waitForFunction(() => !document.body.textContent.includes("Loading…"));
        for (const colorScheme of ["light", "dark"]) {
          await page.emulateMedia({ colorScheme });
          const bad = blocking(await axeViolations(page));
          assert.equal(bad.length, 0, `admin/${section} (${colorScheme}):\n${formatViolations(bad)}`);
        }
      }
      await page.emulateMedia({ colorScheme: "light" });
    },
  );
});
