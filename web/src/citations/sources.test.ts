import { describe, expect, it } from "vitest";
import { appendTurn, applyEvent, newConversation, newTurn } from "../agent/chat/conversation";
import type { ProgressEvent } from "../sse/agentStream";
import { sourcesOf } from "./sources";

function turnWith(events: ProgressEvent[]) {
  let c = appendTurn(newConversation("c", "kb://users/a/"), newTurn({ userId: "u", id: "t" }, "q", "kb://users/a/", "fake"));
  for (const ev of events) c = applyEvent(c, "t", ev);
  return c.turns[0]!;
}

const call = (id: string, name: string, uri: string): ProgressEvent => ({
  type: "tool_call",
  data: { id, name, arguments: JSON.stringify({ uri }) },
});
const result = (id: string, name: string, ok: boolean, uri?: string, offset?: number): ProgressEvent => ({
  type: "tool_result",
  data: { id, name, ok, summary: "", bytes: 1, uri, offset },
});

describe("sourcesOf", () => {
  it("lists each file a successful read read, once, in order", () => {
    const t = turnWith([
      call("1", "ls", "kb://users/a/"),
      result("1", "ls", true, "kb://users/a/"),
      call("2", "read", "kb://users/a/b.md"),
      result("2", "read", true, "kb://users/a/b.md", 0),
      call("3", "read", "kb://users/a/c.md"),
      result("3", "read", true, "kb://users/a/c.md", 500),
      call("4", "read", "kb://users/a/b.md"),
      result("4", "read", true, "kb://users/a/b.md", 900),
    ]);
    expect(sourcesOf(t)).toEqual([
      { uri: "kb://users/a/b.md", offset: 0 },
      { uri: "kb://users/a/c.md", offset: 500 },
    ]);
  });
  it("leaves out failed and unfinished reads and search hits", () => {
    const t = turnWith([
      call("1", "read", "kb://users/a/missing.md"),
      result("1", "read", false),
      call("2", "read", "kb://users/a/slow.md"),
      call("3", "search", "kb://users/a/"),
      result("3", "search", true, "kb://users/a/hit.md", 4),
    ]);
    expect(sourcesOf(t)).toEqual([]);
  });
  it("falls back to the call's URI when the result names none", () => {
    const t = turnWith([call("1", "read", "kb://users/a/b.md"), result("1", "read", true)]);
    expect(sourcesOf(t)).toEqual([{ uri: "kb://users/a/b.md", offset: 0 }]);
  });
});
