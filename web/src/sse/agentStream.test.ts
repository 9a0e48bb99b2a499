import { describe, expect, it, vi } from "vitest";
import { incompleteMessage, lostMessage, streamTurn } from "./agentStream";
import type { ProgressEvent, StreamRequest } from "./agentStream";
import { bodyOf, bytes, controlledBody, splitEvery, sse } from "./testStream";

const REQ: StreamRequest = { uri: "kb://users/a/notes/", model_id: "fake", message: "hi", history: [] };

const START = { turn_id: "t1", model_id: "fake", uri: REQ.uri, mode: "native_tools", limits: { max_steps: 12, max_tool_calls: 24, max_model_calls: 16 } };
const DONE = { finish_reason: "stop", steps: 1, tool_calls: 0, model_calls: 1, estimate: 100, usage: { input_tokens: 40, output_tokens: 3 } };

function streamResponse(body: ReadableStream<Uint8Array>): Response {
  return new Response(body, { status: 200, headers: { "Content-Type": "text/event-stream" } });
}

function fakeFetch(res: Response | (() => Response), seen?: { init?: RequestInit; url?: string }): typeof fetch {
  return (async (url: RequestInfo | URL, init?: RequestInit) => {
    if (seen) {
      seen.url = String(url);
      seen.init = init;
    }
    return typeof res === "function" ? res() : res;
  }) as typeof fetch;
}

async function run(chunks: (Uint8Array | string)[]) {
  const events: ProgressEvent[] = [];
  const outcome = await streamTurn(REQ, (e) => events.push(e), new AbortController().signal, fakeFetch(streamResponse(bodyOf(chunks))));
  return { events, outcome };
}

const text = (events: ProgressEvent[]) =>
  events.map((e) => (e.type === "delta" ? e.data.text : "")).join("");

describe("streamTurn", () => {
  it("posts the request as JSON with the bearer token", async () => {
    localStorage.setItem("knowspace.token", "tok");
    const seen: { init?: RequestInit; url?: string } = {};
    await streamTurn(REQ, () => {}, new AbortController().signal, fakeFetch(streamResponse(bodyOf([sse("done", DONE)])), seen));
    expect(seen.url).toBe("/api/v1/knowledge-agent/stream");
    expect(seen.init?.method).toBe("POST");
    expect(JSON.parse(String(seen.init?.body))).toEqual(REQ);
    const headers = seen.init?.headers as Record<string, string>;
    expect(headers["Content-Type"]).toBe("application/json");
    expect(headers.Authorization).toBe("Bearer tok");
  });

  it("delivers events in order and ends done", async () => {
    const { events, outcome } = await run([
      sse("start", START),
      sse("delta", { text: "Hel" }) + sse("delta", { text: "lo" }),
      sse("done", DONE),
    ]);
    expect(events.map((e) => e.type)).toEqual(["start", "delta", "delta"]);
    expect(text(events)).toBe("Hello");
    expect(outcome).toEqual({ kind: "done", done: DONE });
  });

  it("survives a whole turn cut into 1-, 2-, 3- and 7-byte chunks with CJK text and CRLF", async () => {
    const whole = bytes(
      ": heartbeat\r\n\r\n",
      sse("start", START, "\r\n"),
      sse("reasoning", { text: "想一想" }, "\r\n"),
      sse("tool_call", { id: "c1", name: "ls", arguments: '{"uri":"kb://me/"}' }, "\r\n"),
      sse("tool_result", { id: "c1", name: "ls", ok: true, summary: "2 items", bytes: 10 }, "\r\n"),
      sse("delta", { text: "会议纪要😀" }, "\r\n"),
      sse("delta", { text: " café" }, "\r\n"),
      sse("done", DONE, "\r\n"),
    );
    for (const n of [1, 2, 3, 7]) {
      const { events, outcome } = await run(splitEvery(whole, n));
      expect(events.map((e) => e.type), `n=${n}`).toEqual(["start", "reasoning", "tool_call", "tool_result", "delta", "delta"]);
      expect(text(events)).toBe("会议纪要😀 café");
      expect(outcome.kind).toBe("done");
    }
  });

  it("treats a stream that ends without done as incomplete and keeps what arrived", async () => {
    const { events, outcome } = await run([sse("start", START), sse("delta", { text: "partial" })]);
    expect(text(events)).toBe("partial");
    expect(outcome).toEqual({ kind: "incomplete", message: incompleteMessage() });
  });

  it("treats a done event cut off before its blank line as incomplete", async () => {
    const { outcome } = await run([sse("delta", { text: "x" }), `event: done\ndata: ${JSON.stringify(DONE)}\n`]);
    expect(outcome.kind).toBe("incomplete");
  });

  it("reports an error event with its code and message", async () => {
    const { events, outcome } = await run([
      sse("delta", { text: "so far" }),
      sse("error", { code: "llm_incomplete_stream", message: "The model's answer was cut off." }),
    ]);
    expect(text(events)).toBe("so far");
    expect(outcome).toEqual({ kind: "error", code: "llm_incomplete_stream", message: "The model's answer was cut off." });
  });

  it("ignores everything after the first done or error", async () => {
    const { events, outcome } = await run([sse("error", { code: "x", message: "first" }), sse("delta", { text: "late" }), sse("done", DONE)]);
    expect(events).toEqual([]);
    expect(outcome).toMatchObject({ kind: "error", message: "first" });
  });

  it("skips unknown events and data that is not JSON", async () => {
    const { events, outcome } = await run([
      sse("future_event", { a: 1 }),
      "event: delta\ndata: not json\n\n",
      "data: no event name\n\n",
      sse("delta", { text: "ok" }),
      sse("done", DONE),
    ]);
    expect(text(events)).toBe("ok");
    expect(events).toHaveLength(1);
    expect(outcome.kind).toBe("done");
  });

  it("turns a refusal before the stream into an error with the server's message", async () => {
    const res = new Response(JSON.stringify({ error: { code: "unknown_model", message: "unknown model_id \"x\"" } }), {
      status: 400,
      headers: { "Content-Type": "application/json" },
    });
    const outcome = await streamTurn(REQ, () => {}, new AbortController().signal, fakeFetch(res));
    expect(outcome).toEqual({ kind: "error", code: "unknown_model", message: 'unknown model_id "x"', status: 400 });
  });

  it("reports a network failure before any byte as an error", async () => {
    const failing = (async () => {
      throw new TypeError("Failed to fetch");
    }) as typeof fetch;
    const outcome = await streamTurn(REQ, () => {}, new AbortController().signal, failing);
    expect(outcome).toMatchObject({ kind: "error", code: "network_error" });
  });

  it("reports a connection lost mid-stream as incomplete, keeping the text", async () => {
    const b = controlledBody();
    const events: ProgressEvent[] = [];
    const p = streamTurn(REQ, (e) => events.push(e), new AbortController().signal, fakeFetch(streamResponse(b.body)));
    b.push(sse("delta", { text: "half" }));
    await new Promise((r) => setTimeout(r, 0));
    b.fail(new TypeError("network error"));
    expect(await p).toEqual({ kind: "incomplete", message: lostMessage() });
    expect(text(events)).toBe("half");
  });

  it("reports the caller's abort as stopped, keeping the text", async () => {
    const ac = new AbortController();
    const b = controlledBody();
    const events: ProgressEvent[] = [];
    const f = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
      init?.signal?.addEventListener("abort", () => b.fail(new DOMException("aborted", "AbortError")));
      return streamResponse(b.body);
    });
    const p = streamTurn(REQ, (e) => events.push(e), ac.signal, f as typeof fetch);
    await new Promise((r) => setTimeout(r, 0));
    b.push(sse("delta", { text: "before stop" }));
    await new Promise((r) => setTimeout(r, 0));
    ac.abort();
    expect(await p).toEqual({ kind: "stopped" });
    expect(text(events)).toBe("before stop");
  });

  it("reports an abort before the response as stopped", async () => {
    const ac = new AbortController();
    ac.abort();
    const f = (async () => {
      throw new DOMException("aborted", "AbortError");
    }) as typeof fetch;
    expect(await streamTurn(REQ, () => {}, ac.signal, f)).toEqual({ kind: "stopped" });
  });

  it("keeps done when the stop comes after done arrived", async () => {
    const ac = new AbortController();
    const b = controlledBody();
    const f = (async () => streamResponse(b.body)) as typeof fetch;
    const p = streamTurn(REQ, () => {}, ac.signal, f);
    b.push(sse("done", DONE));
    await new Promise((r) => setTimeout(r, 0));
    ac.abort();
    b.fail(new DOMException("aborted", "AbortError"));
    expect((await p).kind).toBe("done");
  });

  it("resolves at done and cancels the body while the server keeps the connection open", async () => {
    const b = controlledBody(); // never closed
    const events: ProgressEvent[] = [];
    const p = streamTurn(REQ, (e) => events.push(e), new AbortController().signal, fakeFetch(streamResponse(b.body)));
    b.push(sse("delta", { text: "answer" }));
    await new Promise((r) => setTimeout(r, 0));
    b.push(sse("done", DONE) + sse("delta", { text: " late" }));
    expect(await p).toEqual({ kind: "done", done: DONE });
    expect(text(events)).toBe("answer");
    expect(b.cancelled).toBe(true);
  });

  it("resolves at an error event and cancels the body while the server keeps the connection open", async () => {
    const b = controlledBody();
    const p = streamTurn(REQ, () => {}, new AbortController().signal, fakeFetch(streamResponse(b.body)));
    b.push(sse("error", { code: "x", message: "failed" }));
    expect(await p).toMatchObject({ kind: "error", code: "x", message: "failed" });
    expect(b.cancelled).toBe(true);
  });

  it("cancels the body when the progress callback throws", async () => {
    const b = controlledBody();
    const p = streamTurn(
      REQ,
      () => {
        throw new Error("render failed");
      },
      new AbortController().signal,
      fakeFetch(streamResponse(b.body)),
    );
    b.push(sse("delta", { text: "x" }));
    expect(await p).toEqual({ kind: "incomplete", message: lostMessage() });
    expect(b.cancelled).toBe(true);
  });
});
