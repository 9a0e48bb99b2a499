// Settings → Connect an agent (issue 22): a token made for one folder, and
// the setup to paste; the token in the snippets sees that folder only, over
// REST and the OpenAI-compatible endpoint.

import assert from "node:assert/strict";
import { before, describe } from "node:test";
import { axeViolations, blocking, formatViolations } from "../lib/axe.mjs";
import { FAKE_LLM, withWorkspace } from "../lib/fixture.mjs";
import { apiClient } from "../lib/api.mjs";

describe("connect an agent", { timeout: 120_000 }, () => {
  const ws = withWorkspace({ env: FAKE_LLM });
  let server;
  before(() => ({ server } = ws));

  ws.it(
    "creates a read-only token for one folder and shows the setup with it",
    async ({ page }) => {
      // Opened from the workspace with notes/ selected, the picker starts
      // there, and offers the folders by their paths.
      await page.goto(`${server.baseURL}/?open=${encodeURIComponent("kb://users/admin/notes/")}`);
      await page.getByTestId("user-menu-button").click();
      await page.getByRole("menuitem", { name: "Settings" }).click();
      await page.getByRole("link", { name: "Connect an agent" }).click();
      const section = page.getByRole("region", { name: "Connect an agent" });
      const folder = section.getByRole("combobox", { name: "Folder" });
      assert.equal(await folder.inputValue(), "kb://users/admin/notes/");
      const choices = await folder.locator("option").allInnerTexts();
      assert.equal(choices[0], "Home");
      assert.ok(choices.includes("notes/"), choices.join(", "));
      assert.ok(!choices.some((c) => c.includes("kb://")), choices.join(", "));
      assert.equal(await section.getByRole("checkbox", { name: /Read-only/ }).isChecked(), true);
      await section.getByRole("button", { name: "Create token and show setup" }).click();
      const snippets = page.getByTestId("connect-snippets");
      await snippets.waitFor();
      assert.match(await snippets.getByRole("status").innerText(), /sees notes\/ for 90 days/);
      // The OpenAI snippet names a model this server serves.
      const python = await snippets.locator('[data-snippet="openai"] code').innerText();
      const model = python.match(/model="([^"]+)"/)?.[1];
      const served = (await ws.api("/knowledge-agent/options")).models.map((m) => m.id);
      assert.ok(served.includes(model), `${model} not in ${served}`);

      const claude = await snippets.locator('[data-snippet="claude"] code').innerText();
      const m = claude.match(/^claude mcp add --transport http knowspace (\S+)\/mcp --header "Authorization: Bearer (\S+)"$/);
      assert.ok(m, claude);
      assert.equal(m[1], server.baseURL);
      const token = m[2];
      const cursor = JSON.parse(await snippets.locator('[data-snippet="cursor"] code').innerText());
      assert.equal(cursor.mcpServers.knowspace.headers.Authorization, `Bearer ${token}`);

      // The token sees the folder as the root's only child, and cannot write.
      const agent = apiClient(server.baseURL, { token });
      const list = await agent.raw(`/resources?uri=${encodeURIComponent("kb://me/")}`);
      assert.equal(list.status, 200);
      assert.deepEqual((await list.json()).items.map((n) => n.name), ["notes"]);
      const outside = await agent.raw(`/resources/content?uri=${encodeURIComponent("kb://me/Welcome.md")}`);
      assert.equal(outside.status, 404);
      const write = await agent.raw("/resources/folders", { method: "POST", json: { uri: "kb://me/notes/new/" } });
      assert.equal(write.status, 403);
      assert.equal((await write.json()).error.code, "read_only");
      // The OpenAI snippet's base URL answers with the same token.
      const models = await agent.raw(`${server.baseURL}/v1/models`);
      assert.equal(models.status, 200);

      // The token list says what it sees.
      await page.goto(`${server.baseURL}/settings/tokens`);
      const scope = page.locator('tr[data-token="agent"] [data-testid="token-scope"]');
      assert.match(await scope.innerText(), /^notes\/\s*read-only$/);

      await page.goto(`${server.baseURL}/settings/connect`);
      await page.getByRole("region", { name: "Connect an agent" }).waitFor();
      const bad = blocking(await axeViolations(page));
      assert.equal(bad.length, 0, formatViolations(bad));
    },
  );
});
