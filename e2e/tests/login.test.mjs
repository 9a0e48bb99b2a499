import assert from "node:assert/strict";
import { afterEach, describe } from "node:test";
import { screenshot, treeItem } from "../lib/browser.mjs";
import { ADMIN_USER } from "../lib/server.mjs";
import { withWorkspace } from "../lib/fixture.mjs";

const ROOT = `kb://users/${ADMIN_USER}/`;

describe("login", { timeout: 120_000 }, () => {
  const ws = withWorkspace({ page: false });
  // Each test signs in (or fails to) in a fresh context of its own.
  afterEach(() => ws.current()?.context().close());

  ws.it(
    "a wrong password shows the server's error and stays on the login page",
    async () => {
      const page = await ws.open({ signIn: false });
      await page.goto("/");
      await page.getByLabel("Username").fill(ADMIN_USER);
      await page.getByLabel("Password").fill("definitely-wrong");
      await page.getByRole("button", { name: "Sign in" }).click();
      const alert = page.getByRole("alert");
      await alert.waitFor();
      assert.notEqual((await alert.textContent()).trim(), "");
      assert.equal(await page.getByRole("tree").count(), 0);
      assert.equal(await page.evaluate(() => localStorage.getItem("knowspace.token")), null);
    },
  );

  ws.it(
    "admin signs in, sees the sample tree and their name, and signs out",
    async () => {
      const page = await ws.open();
      await treeItem(page, `${ROOT}Welcome.md`).waitFor();
      await treeItem(page, `${ROOT}notes/`).waitFor();
      await treeItem(page, `${ROOT}data/`).waitFor();
      await page.getByTestId("user-menu-button").getByText(ADMIN_USER).waitFor();
      await screenshot(page, "main-wide");

      // The session survives a reload (token in localStorage).
      await page.reload();
      await treeItem(page, `${ROOT}Welcome.md`).waitFor();

      await page.getByTestId("user-menu-button").click();
      await page.getByRole("menuitem", { name: "Sign out" }).click();
      await page.getByRole("button", { name: "Sign in" }).waitFor();
      assert.equal(await page.evaluate(() => localStorage.getItem("knowspace.token")), null);
    },
  );

  ws.it(
    "a rejected token (401) returns to the login page with a message",
    async () => {
      const page = await ws.open();
      await page.evaluate(() => localStorage.setItem("knowspace.token", "not-a-valid-token"));
      await page.reload();
      await page.getByRole("button", { name: "Sign in" }).waitFor();
      await page.getByRole("status").getByText("sign in again").waitFor();
    },
  );
});
