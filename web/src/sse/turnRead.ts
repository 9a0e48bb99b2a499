// Reading one response of a KnowAgent turn: its events, its ending, and the
// event ids that let a detached turn be followed again without a gap.

import i18n from "../i18n";
import { errorFromBody, reportUnauthorized } from "../api/client";
import { decodeEvent } from "./events";
import type { AgentEvent, DoneEvent } from "./events";
import { readSSE } from "./readSSE";

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

/** TurnHooks are what a caller may learn or tune beyond the events. */
export interface TurnHooks {
  /** onReconnecting is told true while a detached turn's dropped connection is being made again, false once it is back */
  onReconnecting?: (on: boolean) => void;
  /** retryDelays are the waits in ms before each new try to follow a detached turn; progress starts them over */
  retryDelays?: number[];
}

/** refusal is the outcome of an answer that is not a stream. */
export async function refusal(res: Response): Promise<TurnOutcome> {
  const err = errorFromBody(res.status, res.statusText, await res.text().catch(() => ""));
  if (res.status === 401) reportUnauthorized(err);
  return { kind: "error", code: err.code, message: err.message, status: res.status };
}

/** TurnCursor is how far a turn's events were read: the last event id, and the answer's message id once start named it. */
export interface TurnCursor {
  last: number;
  messageId?: number;
}

/**
 * readTurn reads one response's events into onEvent. Its outcome is null when
 * the body ended (broken: false) or failed (broken: true) before done or
 * error; the caller's abort is "stopped". Events at or before cursor.last are
 * dropped: a resumed stream never repeats one.
 */
export async function readTurn(
  res: Response,
  onEvent: (ev: ProgressEvent) => void,
  signal: AbortSignal,
  cursor: TurnCursor,
): Promise<{ outcome: TurnOutcome | null; broken: boolean }> {
  if (!res.body) return { outcome: null, broken: false };
  // A holder, not a let: TypeScript does not see assignments made in callbacks.
  const end: { outcome: TurnOutcome | null } = { outcome: null };
  let broken = false;
  try {
    await readSSE(res.body, {
      onMessage: (msg) => {
        if (end.outcome) return "stop";
        const id = msg.id ? Number(msg.id) : NaN;
        const ev = decodeEvent(msg.event, msg.data);
        // A stored replay (the turn's events are gone) is numbered afresh
        // from 1 and tells the whole answer: it is taken whole.
        const replay = ev?.type === "start" && ev.data.replay === true;
        if (Number.isInteger(id)) {
          if (id <= cursor.last && !replay) return;
          cursor.last = id;
        }
        if (!ev) return;
        if (ev.type === "done") end.outcome = { kind: "done", done: ev.data };
        else if (ev.type === "error") end.outcome = errorOutcome(ev.data);
        else {
          if (ev.type === "start" && typeof ev.data.message_id === "number") cursor.messageId = ev.data.message_id;
          onEvent(ev);
        }
        // done or error ends the turn now, even if the server keeps the
        // connection open: stop reading (readSSE cancels the body).
        return end.outcome ? "stop" : undefined;
      },
    });
  } catch {
    broken = true;
  }
  if (end.outcome) return { outcome: end.outcome, broken };
  if (signal.aborted) return { outcome: { kind: "stopped" }, broken };
  return { outcome: null, broken };
}

/** errorOutcome is an error event's ending; a Stop, from this tab or another, is "stopped". */
function errorOutcome(data: { code?: unknown; message?: unknown }): TurnOutcome {
  const code = String(data.code ?? "error");
  if (code === "stopped") return { kind: "stopped" };
  return { kind: "error", code, message: String(data.message || data.code || i18n.t("agent:failed")) };
}
