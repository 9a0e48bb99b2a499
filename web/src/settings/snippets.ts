// Ready-to-paste configuration for the agents and SDKs people already use,
// pointing at this server's MCP endpoint and OpenAI-compatible endpoint.

export interface Snippet {
  id: "claude" | "cursor" | "vscode" | "codex" | "openai";
  /** the file or place it goes, shown above it */
  where: string;
  text: string;
}

/** agentSnippets builds every snippet for a server origin, a token secret and a model id the server serves (null: none yet). */
export function agentSnippets(origin: string, token: string, model: string | null): Snippet[] {
  const mcp = `${origin.replace(/\/$/, "")}/mcp`;
  const v1 = `${origin.replace(/\/$/, "")}/v1`;
  const auth = `Bearer ${token}`;
  const json = (v: unknown) => JSON.stringify(v, null, 2);
  return [
    { id: "claude", where: "terminal", text: `claude mcp add --transport http knowspace ${mcp} --header "Authorization: ${auth}"` },
    { id: "cursor", where: "~/.cursor/mcp.json", text: json({ mcpServers: { knowspace: { url: mcp, headers: { Authorization: auth } } } }) },
    { id: "vscode", where: ".vscode/mcp.json", text: json({ servers: { knowspace: { type: "http", url: mcp, headers: { Authorization: auth } } } }) },
    { id: "codex", where: "~/.codex/config.toml", text: `[mcp_servers.knowspace]\nurl = "${mcp}"\nhttp_headers = { Authorization = "${auth}" }` },
    {
      id: "openai",
      where: "Python",
      text: `from openai import OpenAI\n\nclient = OpenAI(base_url="${v1}", api_key="${token}")\nanswer = client.chat.completions.create(\n    ${model ? `model="${model}",` : `model="",  # no model is configured on this server yet: GET ${v1}/models lists them`}\n    messages=[{"role": "user", "content": "What do my notes say about the plan?"}],\n)\nprint(answer.choices[0].message.content)`,
    },
  ];
}
