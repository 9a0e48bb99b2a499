// One KnowAgent turn over POST /knowledge-agent/stream.

import i18n from "../i18n";
import { apiURL, authHeaders, errorFromBody, reportUnauthorized } from "../api/client";
import { decodeEvent } from "./events";
import type { AgentEvent, DoneEvent } from "./events";
import { readSSE } from "./readSSE";

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
}

/** ProgressEvent is every event but the two that end a turn. */
export type ProgressEvent = Exclude<AgentEvent, { type: "done" } | { type: "error" }>;

/**
 * TurnOutcome is how a turn ended. Only "done" is a complete answer:
 * "error" is an error event or a refusal, "incomplete" a stream that ended
 * without done or error, "stopped" the client's own abort.
 */
export type TurnOutcome =
  | { kind: "done"; done: DoneEvent }
  | { kind: "error"; code: string; message: string; status?: number }
  | { kind: "incomplete"; message: string }
  | { kind: "stopped" };

// Functions, not constants: the sentence is in the language of the moment the turn ends.
export const incompleteMessage = () => i18n.t("agent:incomplete");
export const lostMessage = () => i18n.t("agent:lost");

/**
 * streamTurn sends one question and reports each event as it arrives. It never
 * throws: every ending, including the caller's abort, is a TurnOutcome. The
 * first done or error ends the turn at once: reading stops and the body is
 * cancelled; anything after it is ignored.
 */
export async function streamTurn(
  req: StreamRequest,
  onEvent: (ev: ProgressEvent) => void,
  signal: AbortSignal,
  fetchImpl: typeof fetch = fetch,
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
  if (!res.ok) {
    const err = errorFromBody(res.status, res.statusText, await res.text().catch(() => ""));
    if (res.status === 401) reportUnauthorized(err);
    return { kind: "error", code: err.code, message: err.message, status: res.status };
  }
  if (!res.body) {
    return { kind: "incomplete", message: incompleteMessage() };
  }

  // A holder, not a let: TypeScript does not see assignments made in callbacks.
  const end: { outcome: TurnOutcome | null } = { outcome: null };
  try {
    await readSSE(res.body, {
      onMessage: (msg) => {
        if (end.outcome) return "stop";
        const ev = decodeEvent(msg.event, msg.data);
        if (!ev) return;
        if (ev.type === "done") end.outcome = { kind: "done", done: ev.data };
        else if (ev.type === "error")
          end.outcome = {
            kind: "error",
            code: String(ev.data.code ?? "error"),
            message: String(ev.data.message || ev.data.code || i18n.t("agent:failed")),
          };
        else onEvent(ev);
        // done or error ends the turn now, even if the server keeps the
        // connection open: stop reading (readSSE cancels the body).
        return end.outcome ? "stop" : undefined;
      },
    });
  } catch {
    if (end.outcome) return end.outcome;
    if (signal.aborted) return { kind: "stopped" };
    return { kind: "incomplete", message: lostMessage() };
  }
  if (end.outcome) return end.outcome;
  if (signal.aborted) return { kind: "stopped" };
  return { kind: "incomplete", message: incompleteMessage() };
}
