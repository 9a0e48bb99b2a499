// Reads a text/event-stream body: bytes → UTF-8 text (characters split across
// chunks are held until complete) → SSE messages via eventsource-parser
// (events split across chunks, CRLF, several events per chunk, comments).

import { createParser } from "eventsource-parser";
import type { EventSourceMessage } from "eventsource-parser";

export interface SSEHandlers {
  onMessage: (msg: EventSourceMessage) => void;
  /** onComment sees comment lines such as the server's ": heartbeat". */
  onComment?: (comment: string) => void;
}

/**
 * readSSE feeds every chunk of body to the parser until the body ends. It
 * resolves when the stream ends (for whatever reason the server closed it) and
 * rejects when reading fails (an abort, a lost connection). A trailing event
 * without its blank line is dropped, as EventSource does: it was never
 * complete.
 */
export async function readSSE(body: ReadableStream<Uint8Array>, handlers: SSEHandlers): Promise<void> {
  const decoder = new TextDecoder("utf-8");
  const parser = createParser({
    onEvent: handlers.onMessage,
    onComment: handlers.onComment,
  });
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const text = decoder.decode(value, { stream: true });
      if (text) parser.feed(text);
    }
    const rest = decoder.decode();
    if (rest) parser.feed(rest);
  } finally {
    reader.releaseLock();
  }
}
