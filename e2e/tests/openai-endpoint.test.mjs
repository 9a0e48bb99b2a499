// Issue #22: the official `openai` npm client, given the server's /v1 as
// its base URL and a personal API token as its key, streams a KnowAgent
// answer whole, and throws when the turn is cut (no [DONE] after an error).

import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import OpenAI from "openai";
import { FAKE_LLM, withWorkspace } from "../lib/fixture.mjs";

describe("OpenAI-compatible endpoint", { timeout: 60_000 }, () => {
  const ws = withWorkspace({ env: FAKE_LLM, browser: false });
  let server;
  let client;
  before(async () => {
    ({ server } = ws);
    const { token } = await ws.api("/auth/tokens", { method: "POST", json: { name: "openai e2e" }, status: 201 });
    assert.match(token, /^ks_/);
    client = new OpenAI({ baseURL: `${server.baseURL}/v1`, apiKey: token, maxRetries: 0 });
  });

  it("lists the configured models", async () => {
    const ids = [];
    for await (const m of client.models.list()) ids.push(m.id);
    assert.ok(ids.includes("fake") && ids.includes("fake-text"), `models ${ids}`);
  });

  it("streams an answer that arrives whole", async () => {
    const question = "Please echo this sentence back, with ümlauts and 中文 intact.";
    const stream = await client.chat.completions.create({
      model: "fake",
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: "user", content: "an earlier question" },
        { role: "assistant", content: "an earlier answer" },
        { role: "user", content: question },
      ],
    });
    let text = "";
    let finish = null;
    let usage = null;
    for await (const chunk of stream) {
      assert.equal(chunk.object, "chat.completion.chunk");
      for (const c of chunk.choices) {
        text += c.delta?.content ?? "";
        finish = c.finish_reason ?? finish;
      }
      usage = chunk.usage ?? usage;
    }
    // The fake echoes the last user message.
    assert.equal(text, question);
    assert.equal(finish, "stop");
    assert.ok(usage && usage.completion_tokens > 0, `usage ${JSON.stringify(usage)}`);
  });

  it("answers a whole completion and a tool line", async () => {
    const out = await client.chat.completions.create({ model: "fake", messages: [{ role: "user", content: "use ls" }] });
    const content = out.choices[0].message.content;
    assert.match(content, /^> ls: /m);
    assert.match(content, /Tool result:/);
    assert.equal(out.choices[0].finish_reason, "stop");
  });

  it("throws on the client when the turn is cut", async () => {
    const stream = await client.chat.completions.create({
      model: "fake",
      stream: true,
      messages: [{ role: "user", content: "this answer gets cut [[truncate]] short" }],
    });
    let text = "";
    await assert.rejects(
      async () => {
        for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
      },
      (err) => {
        assert.ok(err instanceof OpenAI.APIError, `not an APIError: ${err}`);
        assert.ok(err.message.length > 0);
        return true;
      },
    );
    assert.ok(text.length > 0, "nothing arrived before the cut");
  });

  it("refuses an unknown model with 404 and a bad key with 401", async () => {
    await assert.rejects(
      client.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] }),
      (err) => err instanceof OpenAI.NotFoundError && err.code === "model_not_found",
    );
    const bad = new OpenAI({ baseURL: `${server.baseURL}/v1`, apiKey: "ks_wrong", maxRetries: 0 });
    await assert.rejects(bad.models.list(), (err) => err instanceof OpenAI.AuthenticationError && err.code === "invalid_api_key");
  });
});
