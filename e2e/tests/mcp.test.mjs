// A real MCP client (the official TypeScript SDK) against /mcp of the real
// binary: it lists the tools and reads the sample tree through them.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { FAKE_LLM, withWorkspace } from "../lib/fixture.mjs";

describe("MCP over /mcp", { timeout: 60_000 }, () => {
  let client;
  // Registered before the workspace's, so the client closes before the server stops.
  after(() => client?.close());
  const ws = withWorkspace({
    env: FAKE_LLM,
    browser: false,
    seed: async ({ api }) => {
      await api.mkdir("kb://me/mcp/");
      await api.upload("kb://me/mcp/", { "note.md": "# Note\n\nThe MCP needle is here.\n" });
    },
  });
  before(async () => {
    client = new Client({ name: "e2e", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`${ws.server.baseURL}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${await ws.api.token()}` } },
    });
    await client.connect(transport);
  });

  it("lists the four read-only tools with their schemas", async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ["ls", "read", "search", "status"]);
    for (const t of tools) {
      assert.equal(t.annotations?.readOnlyHint, true, t.name);
      assert.equal(t.inputSchema.type, "object", t.name);
      assert.ok(t.outputSchema, `${t.name} has an output schema`);
    }
  });

  it("calls ls and read, with structured content and the same JSON as text", async () => {
    const ls = await client.callTool({ name: "ls", arguments: { uri: "kb://me/mcp/" } });
    assert.notEqual(ls.isError, true, JSON.stringify(ls));
    assert.deepEqual(JSON.parse(ls.content[0].text), ls.structuredContent);
    const uris = ls.structuredContent.items.map((i) => i.uri);
    assert.ok(uris.some((u) => u.endsWith("/mcp/note.md")), uris.join(", "));

    const read = await client.callTool({ name: "read", arguments: { uri: "kb://me/mcp/note.md", limit: 10 } });
    assert.notEqual(read.isError, true, JSON.stringify(read));
    assert.equal(read.structuredContent.text, "# Note\n\nTh");
    assert.equal(read.structuredContent.next_offset, 10);

    const missing = await client.callTool({ name: "read", arguments: { uri: "kb://me/mcp/nope.md" } });
    assert.equal(missing.isError, true);
    assert.equal(JSON.parse(missing.content[0].text).error.code, "not_found");
  });
});
