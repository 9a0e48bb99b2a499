import { describe, expect, it } from "vitest";
import { agentSnippets } from "./snippets";

describe("agentSnippets", () => {
  const s = Object.fromEntries(agentSnippets("https://kb.example.org/", "ks_secret", "gpt-x").map((x) => [x.id, x]));
  it("points every MCP client at /mcp with the bearer token", () => {
    expect(s.claude?.text).toBe('claude mcp add --transport http knowspace https://kb.example.org/mcp --header "Authorization: Bearer ks_secret"');
    expect(JSON.parse(s.cursor!.text)).toEqual({ mcpServers: { knowspace: { url: "https://kb.example.org/mcp", headers: { Authorization: "Bearer ks_secret" } } } });
    expect(JSON.parse(s.vscode!.text).servers.knowspace).toEqual({ type: "http", url: "https://kb.example.org/mcp", headers: { Authorization: "Bearer ks_secret" } });
    expect(s.codex?.text).toContain('url = "https://kb.example.org/mcp"');
  });
  it("gives the OpenAI SDK the /v1 base URL and the token as key", () => {
    expect(s.openai?.text).toContain('base_url="https://kb.example.org/v1", api_key="ks_secret"');
  });
  it("names a model the server serves, or says where to find one", () => {
    expect(s.openai?.text).toContain('model="gpt-x",');
    const none = agentSnippets("https://kb.example.org", "k", null).find((x) => x.id === "openai")!;
    expect(none.text).toContain('model="",  # no model is configured on this server yet: GET https://kb.example.org/v1/models lists them');
  });
});
