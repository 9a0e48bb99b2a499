// Embedding models in the admin screens (issue 42): an admin picks the
// embedding kind in the model form, points it at a provider this test
// serves, the check from the form embeds a text with the key, the model is
// added (its key shown only as set with its last four characters) and put
// in use for meaning search. The section is axe clean in English and
// Chinese.

import assert from "node:assert/strict";
import { after, before, describe } from "node:test";
import { axeViolations, blocking, formatViolations } from "../lib/axe.mjs";
import { withWorkspace } from "../lib/fixture.mjs";
import { startProvider } from "../lib/provider.mjs";

const KEY = "sk-e2e-embedding-model-3a7b9c1d";
const LANGUAGE_KEY = "knowspace.lang";
const DIMS = 8;

/** embeddings answers OpenAI's /v1/embeddings with a vector of DIMS for each input. */
function embeddings(body, res) {
  const texts = Array.isArray(body.input) ? body.input : [body.input];
  const data = texts.map((t, index) => ({
    object: "embedding",
    index,
    embedding: Array.from({ length: DIMS }, (_, i) => ((t.length + i) % 7) / 7 + 0.01),
  }));
  res.writeHead(200, { "Content-Type": "application/json" });
  res.end(JSON.stringify({ object: "list", data, model: body.model, usage: { prompt_tokens: texts.length, total_tokens: texts.length } }));
}

describe("admin embedding models", { timeout: 180_000 }, () => {
  let provider;
  before(async () => {
    provider = await startProvider("embeddings", embeddings);
  });
  after(() => provider?.close());
  const ws = withWorkspace({ env: { KB_SECRETS_KEY: "e2e-secrets-key-0123456789abcdefghij" }, page: false });

  ws.it("an admin adds an embedding model in the form, its check passes, and puts it in use", async () => {
    const page = await ws.open();
    await page.goto("/admin/models");
    const section = page.getByRole("region", { name: "Models" });
    await section.getByRole("table").waitFor();
    const form = page.getByTestId("model-form");
    await form.getByLabel("Kind").selectOption("embedding");
    // An embedding model has no chat fields.
    assert.equal(await form.getByLabel("Context window (tokens)").count(), 0);
    await form.getByLabel("Model ID").fill("team-embed");
    await form.getByLabel("Base URL").fill(provider.url);
    await form.getByLabel("Upstream model").fill("text-embedding-small");
    await form.getByLabel("Dimensions (optional)").fill(String(DIMS));
    await form.getByLabel("API key").fill(KEY);
    await form.getByRole("button", { name: "Check" }).click();
    await page.getByTestId("model-check").getByText(/Check passed in \d+ ms/).waitFor();
    assert.equal(provider.auth.at(-1), `Bearer ${KEY}`, "the check reached the provider with the key");
    await form.getByRole("button", { name: "Add model" }).click();
    await page.getByRole("status").getByText("Added model team-embed; it can be used now.").waitFor();
    const row = page.locator('tr[data-model="team-embed"]');
    await row.getByText(`set · …${KEY.slice(-4)}`).waitFor();
    assert.match(await row.innerText(), /Embedding \(meaning search\)/);

    await row.getByRole("button", { name: "Use team-embed for meaning search" }).click();
    await page.getByRole("status").getByText(/Meaning search now uses team-embed/).waitFor();
    await page.locator('tr[data-model="team-embed"][data-in-use="true"]').getByText("In use for meaning search").waitFor();
    assert.ok(!(await page.content()).includes(KEY), "the key is not in the page");
    const violations = blocking(await axeViolations(page));
    assert.equal(violations.length, 0, formatViolations(violations));

    const zh = await ws.open();
    await zh.evaluate((key) => localStorage.setItem(key, "zh-CN"), LANGUAGE_KEY);
    await zh.goto("/admin/models");
    await zh.getByRole("heading", { name: "模型", level: 2 }).waitFor();
    await zh.locator('tr[data-model="team-embed"]').getByText("语义搜索正在使用").waitFor();
    await zh.getByTestId("model-form").getByLabel("类型").waitFor();
    const zhViolations = blocking(await axeViolations(zh));
    assert.equal(zhViolations.length, 0, formatViolations(zhViolations));
    await zh.context().close();
  });
});
