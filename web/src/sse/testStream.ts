// Test helpers: bodies built from hand-made byte chunks.

export const enc = new TextEncoder();

/** bytes turns strings and byte arrays into one Uint8Array. */
export function bytes(...parts: (string | number[] | Uint8Array)[]): Uint8Array {
  const arrays = parts.map((p) => (typeof p === "string" ? enc.encode(p) : p instanceof Uint8Array ? p : Uint8Array.from(p)));
  const out = new Uint8Array(arrays.reduce((n, a) => n + a.length, 0));
  let i = 0;
  for (const a of arrays) {
    out.set(a, i);
    i += a.length;
  }
  return out;
}

/** splitEvery cuts bytes into chunks of n bytes (the last may be shorter). */
export function splitEvery(b: Uint8Array, n: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < b.length; i += n) out.push(b.slice(i, i + n));
  return out;
}

export interface ControlledBody {
  body: ReadableStream<Uint8Array>;
  push: (chunk: Uint8Array | string) => void;
  close: () => void;
  fail: (err: unknown) => void;
  /** cancelled turns true when the reader cancels the body (the connection would close). */
  readonly cancelled: boolean;
}

/** controlledBody is a stream the test feeds chunk by chunk. */
export function controlledBody(): ControlledBody {
  let ctrl!: ReadableStreamDefaultController<Uint8Array>;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      ctrl = c;
    },
    cancel() {
      cancelled = true;
    },
  });
  return {
    body,
    push: (chunk) => ctrl.enqueue(typeof chunk === "string" ? enc.encode(chunk) : chunk),
    close: () => ctrl.close(),
    fail: (err) => ctrl.error(err),
    get cancelled() {
      return cancelled;
    },
  };
}

/** bodyOf is a stream that yields the given chunks and ends. */
export function bodyOf(chunks: (Uint8Array | string)[]): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(c) {
      for (const ch of chunks) c.enqueue(typeof ch === "string" ? enc.encode(ch) : ch);
      c.close();
    },
  });
}

/** sse formats one event the way the server does. */
export function sse(event: string, data: unknown, eol = "\n"): string {
  return `event: ${event}${eol}data: ${JSON.stringify(data)}${eol}${eol}`;
}

/** sseID formats one event of a detached turn, with its id line. */
export function sseID(id: number, event: string, data: unknown): string {
  return `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
