import { describe, expect, it } from "vitest";
import { streamTurn } from "./agentStream";
import type { ProgressEvent, StreamRequest } from "./agentStream";
import { followTurn } from "./followTurn";
import { bodyOf, controlledBody, sseID } from "./testStream";

const REQ: StreamRequest = { uri: "kb://me/", model_id: "fake", message: "hi", history: [], detach: true };
const START = { turn_id: "t1", model_id: "fake", uri: "kb://me/", mode: "native_tools", message_id: 42, conversation_id: 7 };
const DONE = { finish_reason: "stop", steps: 1, tool_calls: 0, model_calls: 1, estimate: 1 };

const sseOK = (body: ReadableStream<Uint8Array>) => new Response(body, { status: 200, headers: { "Content-Type": "text/event-stream" } });
const text = (events: ProgressEvent[]) => events.map((e) => (e.type === "delta" ? e.data.text : "")).join("");

interface Call {
  url: string;
  method: string;
  lastEventID: string | null;
}

/** server answers each fetch in turn with the next of answers (a Response, or an Error to throw). */
function server(answers: (Response | Error)[]) {
  const calls: Call[] = [];
  const f = (async (url: RequestInfo | URL, init?: RequestInit) => {
    const h = new Headers(init?.headers);
    calls.push({ url: String(url), method: init?.method ?? "GET", lastEventID: h.get("Last-Event-ID") });
    const a = answers.shift();
    if (!a) throw new Error("no more answers");
    if (a instanceof Error) throw a;
    return a;
  }) as typeof fetch;
  return { f, calls };
}

const fast = { retryDelays: [1, 1, 1] };

describe("detached turns", () => {
  it("follows again after the last event id when the connection drops, with no gap and no duplicate", async () => {
    const first = controlledBody();
    const { f, calls } = server([
      sseOK(first.body),
      new TypeError("Failed to fetch"), // the network is still down
      // The server resends from after the last id; one duplicate slips in and is dropped.
      sseOK(bodyOf([sseID(2, "delta", { text: "one " }), sseID(3, "delta", { text: "two" }), sseID(4, "done", DONE)])),
    ]);
    const events: ProgressEvent[] = [];
    const states: boolean[] = [];
    const p = streamTurn(REQ, (e) => events.push(e), new AbortController().signal, f, { ...fast, onReconnecting: (on) => states.push(on) });
    first.push(sseID(1, "start", START) + sseID(2, "delta", { text: "one " }));
    await new Promise((r) => setTimeout(r, 0));
    first.fail(new TypeError("network error"));
    expect(await p).toEqual({ kind: "done", done: DONE });
    expect(text(events)).toBe("one two");
    expect(calls.map((c) => [c.method, c.url, c.lastEventID])).toEqual([
      ["POST", "/api/v1/knowledge-agent/stream", null],
      ["GET", "/api/v1/knowledge-agent/stream/42", "2"],
      ["GET", "/api/v1/knowledge-agent/stream/42", "2"],
    ]);
    expect(states).toEqual([true, false]);
  });

  it("does not follow again a turn that was not detached", async () => {
    const { f, calls } = server([sseOK(bodyOf([sseID(1, "start", START)]))]);
    const outcome = await streamTurn({ ...REQ, detach: false }, () => {}, new AbortController().signal, f, fast);
    expect(outcome.kind).toBe("incomplete");
    expect(calls).toHaveLength(1);
  });

  it("ends stopped when the turn was stopped elsewhere", async () => {
    const { f } = server([sseOK(bodyOf([sseID(1, "start", START), sseID(2, "error", { code: "stopped", message: "the answer was stopped" })]))]);
    expect(await streamTurn(REQ, () => {}, new AbortController().signal, f, fast)).toEqual({ kind: "stopped" });
  });

  it("reports an answer the server no longer has with the server's words", async () => {
    const { f } = server([
      new Response(JSON.stringify({ error: { code: "answer_not_running", message: "no answer 42" } }), { status: 404 }),
    ]);
    const outcome = await followTurn(42, 0, () => {}, new AbortController().signal, { ...fast, fetchImpl: f });
    expect(outcome).toMatchObject({ kind: "error", code: "answer_not_running", message: "no answer 42", status: 404 });
  });

  it("follows from the start with Last-Event-ID 0 and stops at the caller's abort", async () => {
    const body = controlledBody();
    const ac = new AbortController();
    const { f, calls } = server([sseOK(body.body)]);
    const events: ProgressEvent[] = [];
    const p = followTurn(42, 0, (e) => events.push(e), ac.signal, { ...fast, fetchImpl: f });
    body.push(sseID(1, "start", START) + sseID(2, "delta", { text: "so far" }));
    await new Promise((r) => setTimeout(r, 0));
    ac.abort();
    body.fail(new DOMException("aborted", "AbortError"));
    expect(await p).toEqual({ kind: "stopped" });
    expect(text(events)).toBe("so far");
    expect(calls[0]?.lastEventID).toBe("0");
  });

  it("gives up with the lost-connection message when the server stays unreachable", async () => {
    const { f, calls } = server([new TypeError("down"), new TypeError("down"), new TypeError("down"), new TypeError("down")]);
    const outcome = await followTurn(42, 5, () => {}, new AbortController().signal, { retryDelays: [1, 1, 1], fetchImpl: f });
    expect(outcome.kind).toBe("incomplete");
    expect(calls).toHaveLength(4);
  });

  it("takes a stored replay numbered afresh from 1 whole, even after a higher Last-Event-ID", async () => {
    const { f, calls } = server([
      sseOK(bodyOf([sseID(1, "start", { ...START, replay: true }), sseID(2, "delta", { text: "the whole answer" }), sseID(3, "done", DONE)])),
    ]);
    const events: ProgressEvent[] = [];
    const outcome = await followTurn(42, 57, (e) => events.push(e), new AbortController().signal, { ...fast, fetchImpl: f });
    expect(outcome).toEqual({ kind: "done", done: DONE });
    expect(events.map((e) => e.type)).toEqual(["start", "delta"]);
    expect(text(events)).toBe("the whole answer");
    expect(calls[0]?.lastEventID).toBe("57");
  });
});
