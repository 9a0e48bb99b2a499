// Audit log (issue 41): the admin's audit screen lists who did what,
// filters by user and action, and exports the filtered events as JSON
// lines; a user reads their own sign-ins in Settings and nobody else's;
// both pass axe, and the screen speaks Chinese.

import assert from "node:assert/strict";
import { before, describe } from "node:test";
import { axeViolations, blocking, formatViolations } from "../lib/axe.mjs";
import { ADMIN_PASSWORD, apiLogin } from "../lib/server.mjs";
import { withWorkspace } from "../lib/fixture.mjs";

const USERS = { carol: "carol-Password-1", dave: "dave-Password-1" };

describe("audit log", { timeout: 180_000 }, () => {
  const ws = withWorkspace({
    page: false,
    seed: async ({ api }) => {
      for (const [name, pass] of Object.entries(USERS)) await api.createUser(name, pass);
      await apiLogin(ws.server.baseURL, "carol", USERS.carol);
      await apiLogin(ws.server.baseURL, "dave", USERS.dave);
      await apiLogin(ws.server.baseURL, "dave", "not-daves-password").catch(() => {});
    },
  });
  let users;
  before(async () => {
    users = Object.fromEntries((await ws.api("/admin/users")).items.map((u) => [u.username, u.id]));
  });

  const rows = (page) => page.locator("tbody tr[data-audit]");
  const rowUsers = (page) => rows(page).evaluateAll((trs) => trs.map((tr) => tr.dataset.user));

  ws.it("the admin filters the log by user, then by action, and exports what the filter shows", async () => {
    const page = await ws.open();
    await page.goto("/admin/audit");
    await page.getByRole("heading", { level: 2, name: "Audit log" }).waitFor();
    await rows(page).first().waitFor();
    const everyone = new Set(await rowUsers(page));
    for (const name of ["admin", "carol", "dave"]) assert.ok(everyone.has(name), `${name} in ${[...everyone]}`);

    await page.getByLabel("User", { exact: true }).selectOption({ label: "carol" });
    await page.waitForFunction(() => {
      const trs = [...document.querySelectorAll("tbody tr[data-audit]")];
      return trs.length > 0 && trs.every((tr) => tr.dataset.user === "carol");
    });
    assert.deepEqual(new Set(await rowUsers(page)), new Set(["carol"]));
    await page.locator('tr[data-audit="signin"][data-user="carol"]').getByText("Signed in").waitFor();

    await page.getByLabel("User", { exact: true }).selectOption({ label: "dave" });
    await page.getByLabel("Action", { exact: true }).selectOption({ label: "Sign-in refused" });
    const refused = page.locator('tr[data-audit="signin_failed"][data-user="dave"]');
    await refused.getByText("Refused · invalid_credentials").waitFor();
    assert.equal(await rows(page).count(), 1);

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export (JSON lines)" }).click()]);
    assert.equal(download.suggestedFilename(), "knowspace-audit.jsonl");
    let text = "";
    for await (const chunk of await download.createReadStream()) text += chunk;
    const events = text.trim().split("\n").map((line) => JSON.parse(line));
    assert.equal(events.length, 1, text);
    assert.equal(events[0].action, "signin_failed");
    assert.equal(events[0].user_id, users.dave);
    assert.ok(!text.includes("not-daves-password"), "the export holds the wrong password");
    await page.getByRole("status").getByText("The events are downloading as JSON lines.").waitFor();

    for (const colorScheme of ["light", "dark"]) {
      await page.emulateMedia({ colorScheme });
      const bad = blocking(await axeViolations(page));
      assert.equal(bad.length, 0, `admin/audit (${colorScheme}):\n${formatViolations(bad)}`);
    }
    await page.emulateMedia({ colorScheme: "light" });
    await page.context().close();
  });

  ws.it("a user sees their own sign-ins in Settings and nobody else's", async () => {
    const page = await ws.open({ user: "carol", password: USERS.carol });
    await page.goto("/settings/activity");
    await page.getByRole("heading", { level: 2, name: "Sign-ins and token uses" }).waitFor();
    await rows(page).first().waitFor();
    // Two sign-ins: the seed's and this page's.
    assert.equal(await page.locator('tr[data-audit="signin"]').count(), 2);
    assert.equal(await page.getByText("Sign-in refused").count(), 0, "dave's refused sign-in shows to carol");
    const bad = blocking(await axeViolations(page));
    assert.equal(bad.length, 0, `settings/activity:\n${formatViolations(bad)}`);
    const res = await fetch(`${ws.server.baseURL}/api/v1/admin/audit`, {
      headers: { Authorization: `Bearer ${await page.evaluate(() => localStorage.getItem("knowspace.token"))}` },
    });
    assert.equal(res.status, 403);
    assert.equal((await res.json()).error.code, "admin_only");
    await page.context().close();
  });

  ws.it("the audit screen speaks Chinese", async () => {
    const page = await ws.open({ locale: "zh-CN", signIn: false });
    await page.goto("/");
    await page.getByLabel("用户名").fill("admin");
    await page.getByLabel("密码").fill(ADMIN_PASSWORD);
    await page.getByRole("button", { name: "登录" }).click();
    await page.getByRole("tree", { name: "文件" }).waitFor();
    await page.goto("/admin/audit");
    await page.getByRole("heading", { level: 2, name: "审计日志" }).waitFor();
    await page.getByRole("navigation", { name: "管理分区" }).getByRole("link", { name: "审计日志" }).waitFor();
    await page.locator('tr[data-audit="signin"]').first().getByText("登录").waitFor();
    await page.context().close();
  });
});
