import { describe, expect, it } from "vitest";
import type { EventSourceMessage } from "eventsource-parser";
import { readSSE } from "./readSSE";
import { bodyOf, bytes, controlledBody, splitEvery, sse } from "./testStream";

async function collect(chunks: (Uint8Array | string)[]) {
  const messages: EventSourceMessage[] = [];
  const comments: string[] = [];
  await readSSE(bodyOf(chunks), {
    onMessage: (m) => void messages.push(m),
    onComment: (c) => comments.push(c),
  });
  return { messages, comments };
}

const simplify = (ms: EventSourceMessage[]) => ms.map((m) => [m.event, m.data]);

describe("readSSE", () => {
  it("reads one event in one chunk", async () => {
    const { messages } = await collect([sse("delta", { text: "hi" })]);
    expect(simplify(messages)).toEqual([["delta", '{"text":"hi"}']]);
  });

  it("reads several events in one chunk", async () => {
    const { messages } = await collect([sse("start", { a: 1 }) + sse("delta", { text: "x" }) + sse("done", {})]);
    expect(messages.map((m) => m.event)).toEqual(["start", "delta", "done"]);
  });

  it("joins an event split across chunks at every byte position", async () => {
    const whole = bytes(sse("delta", { text: "split me" }), sse("done", { ok: true }));
    for (let cut = 1; cut < whole.length; cut++) {
      const { messages } = await collect([whole.slice(0, cut), whole.slice(cut)]);
      expect(simplify(messages), `cut at ${cut}`).toEqual([
        ["delta", '{"text":"split me"}'],
        ["done", '{"ok":true}'],
      ]);
    }
  });

  it("decodes UTF-8 characters split across chunks (one byte per chunk)", async () => {
    const text = "会议纪要 ✓ 😀 café";
    const whole = bytes(sse("delta", { text }));
    const { messages } = await collect(splitEvery(whole, 1));
    expect(messages).toHaveLength(1);
    expect(JSON.parse(messages[0]!.data)).toEqual({ text });
  });

  it("decodes a 4-byte emoji cut after each of its bytes", async () => {
    const emoji = bytes("😀"); // F0 9F 98 80
    expect(emoji.length).toBe(4);
    for (let cut = 1; cut < 4; cut++) {
      const chunks = [
        bytes('event: delta\ndata: {"text":"a', emoji.slice(0, cut)),
        bytes(emoji.slice(cut), 'b"}\n\n'),
      ];
      const { messages } = await collect(chunks);
      expect(JSON.parse(messages[0]!.data).text).toBe("a😀b");
    }
  });

  it("accepts CRLF and bare CR line endings, also split between CR and LF", async () => {
    // (A bare CR at the very end of a stream is ambiguous until the next byte, so a
    // CRLF event closes the sample.)
    const crlf = sse("delta", { text: "one" }, "\r\n") + sse("delta", { text: "two" }, "\r") + sse("done", {}, "\r\n");
    const whole = bytes(crlf);
    const iCR = crlf.indexOf("\r\n") + 1; // cut between \r and \n
    const { messages } = await collect([whole.slice(0, iCR), whole.slice(iCR)]);
    expect(simplify(messages)).toEqual([
      ["delta", '{"text":"one"}'],
      ["delta", '{"text":"two"}'],
      ["done", "{}"],
    ]);
  });

  it("reports comments (heartbeats) and does not turn them into events", async () => {
    const { messages, comments } = await collect([": heartbeat\n\n", sse("delta", { text: "x" }), ": heartbeat\n\n"]);
    expect(messages).toHaveLength(1);
    expect(comments.map((c) => c.trim())).toEqual(["heartbeat", "heartbeat"]);
  });

  it("drops an event left without its blank line at the end", async () => {
    const { messages } = await collect([sse("delta", { text: "a" }), 'event: delta\ndata: {"text":"b"}\n']);
    expect(simplify(messages)).toEqual([["delta", '{"text":"a"}']]);
  });

  it("joins multi-line data with newlines", async () => {
    const { messages } = await collect(["event: delta\ndata: line1\ndata: line2\n\n"]);
    expect(messages[0]!.data).toBe("line1\nline2");
  });

  it("delivers events as chunks arrive, before the stream ends", async () => {
    const b = controlledBody();
    const seen: string[] = [];
    const done = readSSE(b.body, { onMessage: (m) => void seen.push(m.data) });
    b.push(sse("delta", { text: "1" }));
    await new Promise((r) => setTimeout(r, 0));
    expect(seen).toEqual(['{"text":"1"}']);
    b.push(sse("delta", { text: "2" }));
    b.close();
    await done;
    expect(seen).toHaveLength(2);
  });

  it("rejects when the body fails, keeping what was delivered", async () => {
    const b = controlledBody();
    const seen: string[] = [];
    const done = readSSE(b.body, { onMessage: (m) => void seen.push(m.data) });
    b.push(sse("delta", { text: "kept" }));
    await new Promise((r) => setTimeout(r, 0));
    b.fail(new TypeError("network"));
    await expect(done).rejects.toThrow("network");
    expect(seen).toEqual(['{"text":"kept"}']);
  });

  it("stops and cancels the body when onMessage returns stop, though the server keeps it open", async () => {
    const b = controlledBody(); // never closed by the "server"
    const seen: string[] = [];
    const done = readSSE(b.body, {
      onMessage: (m) => {
        seen.push(m.event ?? "");
        return m.event === "done" ? "stop" : undefined;
      },
    });
    b.push(sse("delta", { text: "a" }) + sse("done", {}) + sse("delta", { text: "late" }));
    await done;
    expect(seen).toEqual(["delta", "done"]);
    expect(b.cancelled).toBe(true);
    expect(b.body.locked).toBe(false);
  });

  it("cancels the body and rejects when onMessage throws", async () => {
    const b = controlledBody();
    const done = readSSE(b.body, {
      onMessage: () => {
        throw new Error("boom");
      },
    });
    b.push(sse("delta", { text: "a" }));
    await expect(done).rejects.toThrow("boom");
    expect(b.cancelled).toBe(true);
  });

  it("does not cancel a body that ended by itself", async () => {
    const b = controlledBody();
    const done = readSSE(b.body, { onMessage: () => {} });
    b.push(sse("done", {}));
    b.close();
    await done;
    expect(b.cancelled).toBe(false);
  });
});
