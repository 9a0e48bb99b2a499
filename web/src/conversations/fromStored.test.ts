import { describe, expect, it } from "vitest";
import type { StoredMessage } from "../api/conversations";
import { historyOf } from "../agent/chat/conversation";
import { sourcesOf } from "../citations/sources";
import { storedConversation, turnsOf } from "./fromStored";

const S = "kb://users/a/";
const msg = (m: Partial<StoredMessage> & Pick<StoredMessage, "id" | "role">): StoredMessage => ({
  content: "",
  tool_calls: [],
  status: "complete",
  model_id: "fake",
  version: 1,
  versions: 1,
  created_at: "2026-01-01T00:00:00Z",
  ...m,
});

describe("turnsOf", () => {
  it("pairs questions with answers and keeps tool cards, statuses and errors", () => {
    const turns = turnsOf(
      [
        msg({ id: 1, role: "user", content: "what is in b?" }),
        msg({
          id: 2,
          role: "assistant",
          content: "It says hi.",
          tool_calls: [{ id: "call_1", name: "read", arguments: '{"uri":"kb://users/a/b.md"}', ok: true, summary: "2 chars", uri: "kb://users/a/b.md" }],
        }),
        msg({ id: 3, role: "user", content: "and c?" }),
        msg({ id: 4, role: "assistant", content: "Partly", status: "stopped" }),
        msg({ id: 5, role: "user", content: "again" }),
        msg({ id: 6, role: "assistant", status: "failed", error: { code: "interrupted", message: "server restarted" } }),
      ],
      S,
    );
    expect(turns.map((t) => [t.question, t.status])).toEqual([
      ["what is in b?", "done"],
      ["and c?", "stopped"],
      ["again", "error"],
    ]);
    expect(turns[0]!.parts.map((p) => p.kind)).toEqual(["tool", "text"]);
    expect(sourcesOf(turns[0]!)).toEqual([{ uri: "kb://users/a/b.md", offset: 0 }]);
    expect(turns[2]!.error).toEqual({ code: "interrupted", message: "server restarted" });
    expect(turns[1]!.id).toBe("4");
  });
  it("marks a question left without a stored answer as failed, and keeps it out of history", () => {
    const c = storedConversation(9, S, [msg({ id: 1, role: "user", content: "q" })]);
    expect(c.turns[0]!.status).toBe("error");
    expect(historyOf(c)).toEqual([]);
    expect(c.id).toBe("stored-9");
  });
});

describe("an answer still being written", () => {
  it("opens as a streaming turn with nothing in it yet, to be followed from its first event", () => {
    const c = storedConversation(9, S, [
      msg({ id: 1, role: "user", content: "q" }),
      msg({ id: 2, role: "assistant", content: "half", status: "streaming" }),
    ]);
    expect(c.turns[0]).toMatchObject({ id: "2", status: "streaming", parts: [], question: "q" });
    expect(historyOf(c)).toEqual([]);
  });
});

describe("turnsOf with versions", () => {
  it("keeps an answer's earlier versions as earlier turns, oldest first", () => {
    const [t] = turnsOf(
      [
        msg({ id: 1, role: "user", content: "q" }),
        msg({
          id: 4,
          role: "assistant",
          content: "third",
          version: 3,
          versions: 3,
          earlier: [msg({ id: 2, role: "assistant", content: "first", status: "stopped" }), msg({ id: 3, role: "assistant", content: "second" })],
        }),
      ],
      S,
    );
    expect(t!.id).toBe("4");
    expect(t!.earlier!.map((e) => [e.id, e.status, e.question])).toEqual([
      ["2", "stopped", "q"],
      ["3", "done", "q"],
    ]);
  });
});
