// Following a detached turn: GET /knowledge-agent/stream/{message_id} from
// the last event id seen, again after every drop, until the turn ends.

import { apiURL, authHeaders } from "../api/client";
import { lostMessage, readTurn, refusal } from "./turnRead";
import type { ProgressEvent, TurnCursor, TurnHooks, TurnOutcome } from "./turnRead";

/** The waits before each new try; about 45 s of a server that stays away, then the turn is given up here (it runs on there). */
const RETRY_DELAYS = [250, 500, 1000, 2000, 2000, 4000, 4000, 8000, 8000, 8000, 8000];

export interface FollowOptions extends TurnHooks {
  fetchImpl?: typeof fetch;
  /** reconnecting says the first try already follows a drop */
  reconnecting?: boolean;
}

/** sleep waits ms, or less when signal aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(t);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}

/**
 * followTurn reads a detached turn's events after event id after, then live,
 * until its done or error; a dropped connection or an unreachable server is
 * tried again with the last id seen. It never throws. An answer the server
 * does not know (another user's, or gone) is the server's error.
 */
export async function followTurn(
  messageId: number,
  after: number,
  onEvent: (ev: ProgressEvent) => void,
  signal: AbortSignal,
  opts: FollowOptions = {},
): Promise<TurnOutcome> {
  const fetchImpl = opts.fetchImpl ?? fetch;
  const delays = opts.retryDelays ?? RETRY_DELAYS;
  const cursor: TurnCursor = { last: after, messageId };
  let reconnecting = false;
  let tries = 0;
  const setReconnecting = (on: boolean) => {
    if (on === reconnecting) return;
    reconnecting = on;
    opts.onReconnecting?.(on);
  };
  if (opts.reconnecting) setReconnecting(true);
  for (;;) {
    if (reconnecting) {
      const wait = delays[tries];
      if (wait === undefined) return { kind: "incomplete", message: lostMessage() };
      tries++;
      await sleep(wait, signal);
    }
    if (signal.aborted) return { kind: "stopped" };
    let res: Response;
    try {
      res = await fetchImpl(apiURL(`/knowledge-agent/stream/${messageId}`), {
        headers: { ...authHeaders(), Accept: "text/event-stream", "Last-Event-ID": String(cursor.last) },
        signal,
      });
    } catch {
      if (signal.aborted) return { kind: "stopped" };
      setReconnecting(true);
      continue;
    }
    // A server restarting or overloaded answers 5xx for a while: try again.
    if (res.status >= 500) {
      await res.body?.cancel().catch(() => {});
      setReconnecting(true);
      continue;
    }
    if (!res.ok) return refusal(res);
    setReconnecting(false);
    const before = cursor.last;
    const read = await readTurn(res, onEvent, signal, cursor);
    if (read.outcome) return read.outcome;
    if (cursor.last > before) tries = 0;
    setReconnecting(true);
  }
}
