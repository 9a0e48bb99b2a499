// Reads a text/event-stream body: bytes → UTF-8 text (characters split across
// chunks are held until complete) → SSE messages via eventsource-parser
// (events split across chunks, CRLF, several events per chunk, comments).

import { createParser } from "eventsource-parser";
import type { EventSourceMessage } from "eventsource-parser";

export interface SSEHandlers {
  /** onMessage may return "stop" to stop reading: the body is then cancelled. */
  onMessage: (msg: EventSourceMessage) => void | "stop";
  /** onComment sees comment lines such as the server's ": heartbeat". */
  onComment?: (comment: string) => void;
}

/**
 * readSSE feeds every chunk of body to the parser until the body ends or
 * onMessage returns "stop". It resolves when the stream ends (for whatever
 * reason the server closed it) or was stopped, and rejects when reading fails
 * (an abort, a lost connection) or a handler throws. On every exit but the
 * body's own end the body is cancelled, so the connection is released even if
 * the server keeps it open. A trailing event without its blank line is
 * dropped, as EventSource does: it was never complete.
 */
export async function readSSE(body: ReadableStream<Uint8Array>, handlers: SSEHandlers): Promise<void> {
  const decoder = new TextDecoder("utf-8");
  let stopped = false;
  const parser = createParser({
    onEvent: (msg) => {
      // Events the same chunk holds after a stop are not delivered.
      if (!stopped && handlers.onMessage(msg) === "stop") stopped = true;
    },
    onComment: (c) => {
      if (!stopped) handlers.onComment?.(c);
    },
  });
  const reader = body.getReader();
  let finished = false;
  try {
    while (!stopped) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        const rest = decoder.decode();
        if (rest) parser.feed(rest);
        break;
      }
      const text = decoder.decode(value, { stream: true });
      if (text) parser.feed(text);
    }
  } finally {
    // A stop, a throwing handler or a failed read: cancel the body so the
    // connection closes (cancel on an errored stream rejects; that is fine).
    if (!finished) reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
