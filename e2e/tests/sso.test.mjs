// Single sign-on in the browser against a real OpenID provider run as its
// own process: the login page's provider button, the provider's own login
// form, the account made with its mapped group (and a share to that group
// visible at once), the Chinese button, sign-out through the provider's
// end-session endpoint, and a server whose password form is off.

import assert from "node:assert/strict";
import { after, describe } from "node:test";
import { assertAccessible } from "../lib/axe.mjs";
import { screenshot } from "../lib/browser.mjs";
import { withWorkspace } from "../lib/fixture.mjs";
import { ssoEnv, startProvider } from "../lib/oidc.mjs";
import { freePort } from "../lib/server.mjs";

const ALICE = { u1: { username: "alice@corp.example", password: "alice-pw", email: "alice@corp.example", email_verified: true, groups: ["eng"] } };

function withProvider({ passwordLogin, providers = [{ id: "corp", name: "Corp SSO" }] }) {
  const running = [];
  after(() => running.forEach((p) => p.stop()));
  const ws = withWorkspace({
    page: false,
    env: async () => {
      const serverURL = `http://127.0.0.1:${await freePort()}`;
      const provider = await startProvider({ serverURL, ids: providers.map((p) => p.id), users: ALICE });
      running.push(provider);
      return ssoEnv({ serverURL, provider, providers, passwordLogin });
    },
  });
  ws.provider = () => running[0];
  return ws;
}

/** signInAtProvider types alice's credentials into the provider's own form. */
async function signInAtProvider(page) {
  await page.getByLabel("Username:").fill("alice@corp.example");
  await page.getByLabel("Password:").fill("alice-pw");
  await page.getByRole("button", { name: "Login" }).click();
}

describe("single sign-on", { timeout: 120_000 }, () => {
  const ws = withProvider({ passwordLogin: true, providers: [{ id: "corp", name: "Corp SSO" }, { id: "lab", name: "Lab login" }] });

  ws.it("signs in through the provider with the mapped group, and signs out there too", async () => {
    await ws.api("/admin/groups", { method: "POST", json: { name: "engineering" }, status: 201 });
    await ws.api("/resources/folders", { method: "POST", json: { uri: "kb://me/eng-handbook/" }, status: 201 });
    await ws.api("/resources/shares", { method: "POST", json: { uri: "kb://me/eng-handbook/", group: "engineering", role: "read" }, status: 201 });

    const page = await ws.open({ signIn: false });
    await page.goto("/notes/");
    const button = page.getByRole("link", { name: "Continue with Corp SSO" });
    await button.waitFor();
    assert.equal(await page.getByLabel("Password").count(), 1, "the password form stays beside the provider");
    await screenshot(page, "login-sso");
    await assertAccessible(page);

    await button.click();
    await signInAtProvider(page);
    await page.getByRole("tree", { name: "Files" }).waitFor();
    await page.getByTestId("user-menu-button").getByText("alice").waitFor();
    assert.equal(new URL(page.url()).hash, "", "the one-time ticket left the address");
    const token = await page.evaluate(() => localStorage.getItem("knowspace.token"));
    const shared = await (await fetch(`${ws.server.baseURL}/api/v1/resources?uri=kb://shared/`, { headers: { Authorization: `Bearer ${token}` } })).json();
    assert.deepEqual(shared.items.map((i) => i.name), ["eng-handbook"]);

    // The login page shows at once, before the logout call answers with the
    // provider's address: wait for the page to come back from the provider.
    const endSession = [];
    page.on("request", (r) => r.url().includes("/end_session?") && endSession.push(new URL(r.url())));
    const back = page.waitForEvent("framenavigated", {
      predicate: (f) => f === page.mainFrame() && endSession.length > 0 && new URL(f.url()).origin === ws.server.baseURL,
    });
    await page.getByTestId("user-menu-button").click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await back;
    await page.getByRole("link", { name: "Continue with Corp SSO" }).waitFor();
    assert.equal(endSession.length, 1, "the browser went to the provider's end-session endpoint");
    assert.ok(endSession[0].searchParams.get("id_token_hint"), "with the ID token as hint");
    assert.equal(new URL(page.url()).origin, ws.server.baseURL, "and the provider sent it back");

    // The provider drops alice from eng: the next sign-in takes the membership, and the share, away.
    await ws.provider().setUsers({ u1: { ...ALICE.u1, groups: ["staff"] } });
    await page.getByRole("link", { name: "Continue with Corp SSO" }).click();
    await signInAtProvider(page);
    await page.getByRole("tree", { name: "Files" }).waitFor();
    const again = await page.evaluate(() => localStorage.getItem("knowspace.token"));
    const after = await (await fetch(`${ws.server.baseURL}/api/v1/resources?uri=kb://shared/`, { headers: { Authorization: `Bearer ${again}` } })).json();
    assert.deepEqual(after.items, [], "the share went with the membership");
  });

  ws.it("offers every configured provider side by side", async () => {
    const page = await ws.open({ signIn: false });
    await page.goto("/");
    // The providers come with the login options: wait for them to be drawn.
    await page.locator(".login-providers a").nth(1).waitFor();
    const names = await page.locator(".login-providers a").allInnerTexts();
    assert.deepEqual(names.map((n) => n.trim()), ["Continue with Corp SSO", "Continue with Lab login"]);
  });

  ws.it("the button speaks Chinese", async () => {
    const page = await ws.open({ signIn: false, locale: "zh-CN" });
    await page.goto("/");
    await page.getByRole("link", { name: "通过 Corp SSO 登录" }).waitFor();
  });
});

describe("single sign-on only", { timeout: 120_000 }, () => {
  const ws = withProvider({ passwordLogin: false });

  ws.it("hides the password form and starts on the provider's button", async () => {
    const page = await ws.open({ signIn: false });
    await page.goto("/");
    const button = page.getByRole("link", { name: "Continue with Corp SSO" });
    await button.waitFor();
    assert.equal(await page.getByLabel("Password").count(), 0);
    assert.ok(await button.evaluate((el) => el === document.activeElement), "focus is on the button");
    await assertAccessible(page);
  });
});
