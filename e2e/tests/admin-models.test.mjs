// Models in the admin screens (issue 42): an admin adds a model in the form
// pointed at a provider this test serves, the check from the form passes,
// the key is shown only as set with its last four characters, and a user
// picks the new model in the chat at once and gets its answer. The section
// is axe clean in English and Chinese.

import assert from "node:assert/strict";
import { after, before, describe } from "node:test";
import { answerText, askAndWait, chatBox } from "../lib/agent.mjs";
import { axeViolations, blocking, formatViolations } from "../lib/axe.mjs";
import { screenshot } from "../lib/browser.mjs";
import { withWorkspace } from "../lib/fixture.mjs";
import { startProvider } from "../lib/provider.mjs";

const MEMBER = "erin";
const MEMBER_PASSWORD = "erin-Password-1";
const KEY = "sk-e2e-admin-model-5c9d1e7f";
const LANGUAGE_KEY = "knowspace.lang";
const ANSWER = "Hello from the model the admin added.";

/** chatAnswer streams ANSWER as an OpenAI chat completion. */
function chatAnswer(body, res) {
  const chunk = (delta, finish) =>
    `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 0, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  res.writeHead(200, { "Content-Type": "text/event-stream" });
  res.write(chunk({ role: "assistant", content: ANSWER }, null));
  res.write(chunk({}, "stop"));
  res.end("data: [DONE]\n\n");
}

describe("admin models", { timeout: 180_000 }, () => {
  let provider;
  before(async () => {
    provider = await startProvider("chat/completions", chatAnswer);
  });
  after(() => provider?.close());
  const ws = withWorkspace({
    env: { KB_SECRETS_KEY: "e2e-secrets-key-0123456789abcdefghij" },
    page: false,
    seed: ({ api }) => api.createUser(MEMBER, MEMBER_PASSWORD),
  });

  ws.it("an admin adds a model in the form, its check passes, and a user picks it in the chat", async () => {
    const page = await ws.open();
    await page.goto("/admin/models");
    const section = page.getByRole("region", { name: "Models" });
    await section.getByRole("table").waitFor();
    // The server's own models are absent here: nothing is configured, so the
    // table starts empty of rows and the form is the way to add one.
    const form = page.getByTestId("model-form");
    await form.getByLabel("Model ID").fill("team-model");
    await form.getByLabel("Display name").fill("Team model");
    await form.getByLabel("Base URL").fill(provider.url);
    await form.getByLabel("Upstream model").fill("upstream-team");
    await form.getByLabel("Context window (tokens)").fill("32768");
    await form.getByLabel("Output reserve (tokens)").fill("2048");
    await form.getByLabel("Native tool calls").uncheck();
    await form.getByLabel("API key").fill(KEY);
    await form.getByRole("button", { name: "Check" }).click();
    await page.getByTestId("model-check").getByText(/Check passed in \d+ ms/).waitFor();
    assert.equal(provider.auth.at(-1), `Bearer ${KEY}`, "the check reached the provider with the key");
    await form.getByRole("button", { name: "Add model" }).click();
    await page.getByRole("status").getByText("Added model team-model; it can be used now.").waitFor();
    const row = page.locator('tr[data-model="team-model"]');
    await row.getByText(`set · …${KEY.slice(-4)}`).waitFor();
    assert.match(await row.innerText(), /Added here/);
    assert.ok(!(await page.content()).includes(KEY), "the key is not in the page");
    await screenshot(page, "admin-models");
    const violations = blocking(await axeViolations(page));
    assert.equal(violations.length, 0, formatViolations(violations));

    // The same admin's page in Chinese (the language the settings store).
    const zh = await ws.open();
    await zh.evaluate((key) => localStorage.setItem(key, "zh-CN"), LANGUAGE_KEY);
    await zh.goto("/admin/models");
    await zh.getByRole("heading", { name: "模型", level: 2 }).waitFor();
    await zh.locator('tr[data-model="team-model"]').getByText("在此添加").waitFor();
    await zh.getByTestId("model-form").getByRole("button", { name: "添加模型" }).waitFor();
    const zhViolations = blocking(await axeViolations(zh));
    assert.equal(zhViolations.length, 0, formatViolations(zhViolations));
    await zh.context().close();

    const user = await ws.open({ user: MEMBER, password: MEMBER_PASSWORD });
    await chatBox(user).waitFor();
    await user.getByLabel("Model").selectOption("team-model");
    const { msg, status } = await askAndWait(user, "hello");
    assert.equal(status, "done");
    assert.equal(await answerText(msg), ANSWER);
    assert.equal(provider.auth.at(-1), `Bearer ${KEY}`);
  });
});
