// One KnowAgent turn over POST /knowledge-agent/stream.

import i18n from "../i18n";
import { apiURL, authHeaders } from "../api/client";
import { followTurn } from "./followTurn";
import { incompleteMessage, lostMessage, readTurn, refusal } from "./turnRead";
import type { ProgressEvent, TurnCursor, TurnHooks, TurnOutcome } from "./turnRead";

export { incompleteMessage, lostMessage } from "./turnRead";
export type { ProgressEvent, TurnHooks, TurnOutcome } from "./turnRead";

export interface HistoryItem {
  role: "user" | "assistant";
  content: string;
}

export interface StreamRequest {
  uri: string;
  model_id: string;
  message: string;
  history: HistoryItem[];
  /** stored conversations only (api/conversations.ts); a server without them refuses these fields */
  conversation_id?: number;
  temporary?: boolean;
  regenerate?: number;
  edit?: number;
  /** detach keeps the turn running when this connection ends; it is followed again by its message id */
  detach?: boolean;
}

/**
 * streamTurn sends one question and reports each event as it arrives. It never
 * throws: every ending, including the caller's abort, is a TurnOutcome. The
 * first done or error ends the turn at once: reading stops and the body is
 * cancelled; anything after it is ignored. A detached turn (req.detach) whose
 * connection drops is followed again after the last event id it saw, so a
 * flaky network leaves no gap.
 */
export async function streamTurn(
  req: StreamRequest,
  onEvent: (ev: ProgressEvent) => void,
  signal: AbortSignal,
  fetchImpl: typeof fetch = fetch,
  hooks: TurnHooks = {},
): Promise<TurnOutcome> {
  let res: Response;
  try {
    res = await fetchImpl(apiURL("/knowledge-agent/stream"), {
      method: "POST",
      headers: { ...authHeaders(), "Content-Type": "application/json", Accept: "text/event-stream" },
      body: JSON.stringify(req),
      signal,
    });
  } catch {
    if (signal.aborted) return { kind: "stopped" };
    return { kind: "error", code: "network_error", message: i18n.t("errors:network_error") };
  }
  if (!res.ok) return refusal(res);
  const cursor: TurnCursor = { last: 0 };
  const read = await readTurn(res, onEvent, signal, cursor);
  if (read.outcome) return read.outcome;
  if (req.detach && cursor.messageId !== undefined) {
    return followTurn(cursor.messageId, cursor.last, onEvent, signal, { ...hooks, fetchImpl, reconnecting: true });
  }
  return read.broken ? { kind: "incomplete", message: lostMessage() } : { kind: "incomplete", message: incompleteMessage() };
}

