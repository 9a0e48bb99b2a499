import { describe, expect, it } from "vitest";
import {
  answerText,
  appendTurn,
  applyEvent,
  finishTurn,
  historyOf,
  isStreaming,
  lastContext,
  newConversation,
  newTurn,
} from "./conversation";
import type { Conversation } from "./conversation";
import type { DoneEvent } from "../../sse/events";
import { CONTEXT } from "../../testing/fixtures";

const DONE: DoneEvent = { finish_reason: "stop", steps: 1, tool_calls: 0, model_calls: 1, estimate: 10 };

function withTurn(c: Conversation, id: string, q: string): Conversation {
  return appendTurn(c, newTurn({ userId: `u-${id}`, id }, q, c.scope, "fake"));
}

function delta(c: Conversation, id: string, text: string) {
  return applyEvent(c, id, { type: "delta", data: { text } });
}

describe("conversation", () => {
  it("appends deltas and reasoning as ordered parts around tool cards", () => {
    let c = withTurn(newConversation("c", "kb://x/"), "t1", "q");
    c = applyEvent(c, "t1", { type: "reasoning", data: { text: "think " } });
    c = applyEvent(c, "t1", { type: "reasoning", data: { text: "more" } });
    c = applyEvent(c, "t1", { type: "tool_call", data: { id: "a", name: "ls", arguments: "{}" } });
    c = applyEvent(c, "t1", { type: "tool_result", data: { id: "a", name: "ls", ok: true, summary: "2 items", bytes: 5 } });
    c = delta(c, "t1", "Hel");
    c = delta(c, "t1", "lo");
    const t = c.turns[0]!;
    expect(t.parts).toEqual([
      { kind: "reasoning", text: "think more" },
      { kind: "tool", id: "a" },
      { kind: "text", text: "Hello" },
    ]);
    expect(t.tools.a?.result?.summary).toBe("2 items");
    expect(answerText(t)).toBe("Hello");
  });

  it("shows a result whose call never came", () => {
    let c = withTurn(newConversation("c", "kb://x/"), "t1", "q");
    c = applyEvent(c, "t1", { type: "tool_result", data: { id: "z", name: "read", ok: false, summary: "bad", bytes: 0 } });
    expect(c.turns[0]!.parts).toEqual([{ kind: "tool", id: "z" }]);
  });

  it("only done completes a turn; history holds completed turns only", () => {
    let c = newConversation("c", "kb://x/");
    for (const [id, outcome] of [
      ["ok", { kind: "done", done: DONE }],
      ["err", { kind: "error", code: "llm_incomplete_stream", message: "cut" }],
      ["inc", { kind: "incomplete", message: "no done" }],
      ["stop", { kind: "stopped" }],
    ] as const) {
      c = withTurn(c, id, `question ${id}`);
      c = delta(c, id, `answer ${id}`);
      c = finishTurn(c, id, outcome);
    }
    expect(c.turns.map((t) => t.status)).toEqual(["done", "error", "incomplete", "stopped"]);
    expect(c.turns.map(answerText)).toEqual(["answer ok", "answer err", "answer inc", "answer stop"]);
    expect(c.turns[1]!.error).toEqual({ code: "llm_incomplete_stream", message: "cut" });
    expect(historyOf(c)).toEqual([
      { role: "user", content: "question ok" },
      { role: "assistant", content: "answer ok" },
    ]);
    expect(isStreaming(c)).toBe(false);
  });

  it("a finished turn never changes again, and never changes another turn", () => {
    let c = withTurn(newConversation("c", "kb://x/"), "t1", "q1");
    c = delta(c, "t1", "first");
    c = finishTurn(c, "t1", { kind: "done", done: DONE });
    c = withTurn(c, "t2", "q2");
    c = delta(c, "t2", "second");
    c = finishTurn(c, "t2", { kind: "stopped" });
    const frozen = c;
    c = delta(c, "t2", " late");
    c = finishTurn(c, "t2", { kind: "done", done: DONE });
    c = finishTurn(c, "t1", { kind: "error", code: "x", message: "y" });
    expect(c).toBe(frozen);
    expect(c.turns[0]!.status).toBe("done");
    expect(answerText(c.turns[0]!)).toBe("first");
  });

  it("ignores events for a turn of an older conversation", () => {
    const c = newConversation("new", "kb://y/");
    expect(delta(c, "old-turn", "x")).toBe(c);
    expect(finishTurn(c, "old-turn", { kind: "stopped" })).toBe(c);
  });

  it("leaves out a completed turn without answer text", () => {
    let c = withTurn(newConversation("c", "kb://x/"), "t1", "q");
    c = finishTurn(c, "t1", { kind: "done", done: DONE });
    expect(historyOf(c)).toEqual([]);
  });

  it("finds the newest context across turns", () => {
    let c = withTurn(newConversation("c", "kb://x/"), "t1", "q");
    expect(lastContext(c)).toBeNull();
    c = applyEvent(c, "t1", { type: "context", data: CONTEXT });
    c = finishTurn(c, "t1", { kind: "done", done: DONE });
    c = withTurn(c, "t2", "q2");
    expect(lastContext(c)?.turn.id).toBe("t1");
    c = applyEvent(c, "t2", { type: "context", data: { ...CONTEXT, estimate: 200 } });
    expect(lastContext(c)?.context.estimate).toBe(200);
  });
});

describe("dropTurn", () => {
  it("removes the replaced turn and keeps the rest, and is a no-op for an unknown id", async () => {
    const { appendTurn, dropTurn, newConversation, newTurn } = await import("./conversation");
    let c = newConversation("c", "kb://users/a/");
    c = appendTurn(c, newTurn({ userId: "u1", id: "t1" }, "one", "kb://users/a/", "fake"));
    c = appendTurn(c, newTurn({ userId: "u2", id: "t2" }, "two", "kb://users/a/", "fake"));
    expect(dropTurn(c, "t2").turns.map((t) => t.question)).toEqual(["one"]);
    expect(dropTurn(c, "nope")).toBe(c);
  });
});

describe("a stored replay", () => {
  it("starts the answer over: what was shown before is replaced, not doubled", () => {
    let c = appendTurn(newConversation("c", "kb://me/"), newTurn({ userId: "u", id: "a" }, "q", "kb://me/", "fake"));
    c = applyEvent(c, "a", { type: "delta", data: { text: "half an" } });
    const start = { turn_id: "t", model_id: "fake", uri: "kb://me/", limits: { max_steps: 1, max_tool_calls: 1, max_model_calls: 1 } };
    c = applyEvent(c, "a", { type: "start", data: { ...start, replay: true } });
    c = applyEvent(c, "a", { type: "delta", data: { text: "the whole answer" } });
    expect(answerText(c.turns[0]!)).toBe("the whole answer");
  });
});
