// The conversation as plain data, and how stream events change it. Pure, so
// the rules (a failed or stopped turn is never complete, never overwrites an
// earlier turn, and stays out of the history) are unit-tested without React.

import type { HistoryItem, ProgressEvent, TurnOutcome } from "../../sse/agentStream";
import type { ContextEvent, DoneEvent, StartEvent, ToolCallEvent, ToolResultEvent } from "../../sse/events";

export type TurnStatus = "streaming" | "done" | "error" | "incomplete" | "stopped";

export type TurnPart =
  | { kind: "text"; text: string }
  | { kind: "reasoning"; text: string }
  | { kind: "tool"; id: string };

export interface ToolCard {
  call: ToolCallEvent;
  result?: ToolResultEvent;
}

/** Turn is one question and the answer it got (so far). */
export interface Turn {
  /** id of the user message */
  userId: string;
  /** id of the assistant message */
  id: string;
  question: string;
  scope: string;
  modelId: string;
  status: TurnStatus;
  parts: TurnPart[];
  tools: Record<string, ToolCard>;
  start?: StartEvent;
  context?: ContextEvent;
  done?: DoneEvent;
  error?: { code: string; message: string };
  /** earlier answers to this question (Retry or Edit kept them), oldest first */
  earlier?: Turn[];
  /** reconnecting: the connection to a running answer dropped and is being made again */
  reconnecting?: boolean;
}

/** Conversation is the chat of one folder; switching folder starts a new one. */
export interface Conversation {
  id: string;
  scope: string;
  turns: Turn[];
}

export function newConversation(id: string, scope: string): Conversation {
  return { id, scope, turns: [] };
}

export function newTurn(ids: { userId: string; id: string }, question: string, scope: string, modelId: string): Turn {
  return { ...ids, question, scope, modelId, status: "streaming", parts: [], tools: {} };
}

/** appendTurn adds a new turn at the end. */
export function appendTurn(c: Conversation, turn: Turn): Conversation {
  return { ...c, turns: [...c.turns, turn] };
}

/**
 * dropTurn removes a turn, for an edited question that replaces it: its
 * answer leaves the page and the history with it.
 */
export function dropTurn(c: Conversation, id: string): Conversation {
  const turns = c.turns.filter((t) => t.id !== id);
  return turns.length === c.turns.length ? c : { ...c, turns };
}

function updateTurn(c: Conversation, id: string, f: (t: Turn) => Turn): Conversation {
  let changed = false;
  const turns = c.turns.map((t) => {
    if (t.id !== id) return t;
    const next = f(t);
    if (next !== t) changed = true;
    return next;
  });
  return changed ? { ...c, turns } : c;
}

function appendText(parts: TurnPart[], kind: "text" | "reasoning", text: string): TurnPart[] {
  if (!text) return parts;
  const last = parts[parts.length - 1];
  if (last && last.kind === kind) {
    return [...parts.slice(0, -1), { kind, text: last.text + text }];
  }
  return [...parts, { kind, text }];
}

/** applyEvent adds one stream event to the turn it belongs to; a finished turn does not change. */
export function applyEvent(c: Conversation, turnId: string, ev: ProgressEvent): Conversation {
  return updateTurn(c, turnId, (t) => {
    if (t.status !== "streaming") return t;
    switch (ev.type) {
      case "start":
        // A stored replay tells the whole answer again: start it over.
        if (ev.data.replay) return { ...t, start: ev.data, parts: [], tools: {} };
        return { ...t, start: ev.data };
      case "delta":
        return { ...t, parts: appendText(t.parts, "text", ev.data.text) };
      case "reasoning":
        return { ...t, parts: appendText(t.parts, "reasoning", ev.data.text) };
      case "tool_call": {
        const id = ev.data.id;
        if (t.tools[id]) return { ...t, tools: { ...t.tools, [id]: { ...t.tools[id], call: ev.data } } };
        return { ...t, parts: [...t.parts, { kind: "tool", id }], tools: { ...t.tools, [id]: { call: ev.data } } };
      }
      case "tool_result": {
        const id = ev.data.id;
        const card = t.tools[id];
        if (card) return { ...t, tools: { ...t.tools, [id]: { ...card, result: ev.data } } };
        // A result without its call (should not happen): show it anyway.
        const call = { id, name: ev.data.name, arguments: "" };
        return { ...t, parts: [...t.parts, { kind: "tool", id }], tools: { ...t.tools, [id]: { call, result: ev.data } } };
      }
      case "context":
        return { ...t, context: ev.data };
      default:
        return t;
    }
  });
}

/** markReconnecting shows (or clears) that a streaming turn's connection is being made again. */
export function markReconnecting(c: Conversation, turnId: string, on: boolean): Conversation {
  return updateTurn(c, turnId, (t) => (t.status !== "streaming" || !!t.reconnecting === on ? t : { ...t, reconnecting: on }));
}

/** finishTurn records how a streaming turn ended; an already finished turn keeps its ending. */
export function finishTurn(c: Conversation, turnId: string, outcome: TurnOutcome): Conversation {
  return updateTurn(c, turnId, (raw) => {
    if (raw.status !== "streaming") return raw;
    const t = raw.reconnecting ? { ...raw, reconnecting: false } : raw;
    switch (outcome.kind) {
      case "done":
        return { ...t, status: "done", done: outcome.done };
      case "error":
        return { ...t, status: "error", error: { code: outcome.code, message: outcome.message } };
      case "incomplete":
        return { ...t, status: "incomplete", error: { code: "incomplete_stream", message: outcome.message } };
      case "stopped":
        return { ...t, status: "stopped" };
    }
  });
}

/** answerText is the assistant's answer: the text parts, in order. */
export function answerText(t: Turn): string {
  return t.parts
    .filter((p): p is { kind: "text"; text: string } => p.kind === "text")
    .map((p) => p.text)
    .join("");
}

/**
 * historyOf is what the next request sends as history: the question and
 * answer text of completed turns only. A failed or stopped turn's partial
 * text is never presented to the model as an answer.
 */
export function historyOf(c: Conversation): HistoryItem[] {
  const out: HistoryItem[] = [];
  for (const t of c.turns) {
    if (t.status !== "done") continue;
    const answer = answerText(t);
    // A question without an answer text would leave two user items in a row.
    if (!answer) continue;
    out.push({ role: "user", content: t.question }, { role: "assistant", content: answer });
  }
  return out;
}

/** lastContext is the newest context event of the conversation, for the meter. */
export function lastContext(c: Conversation): { context: ContextEvent; turn: Turn } | null {
  for (let i = c.turns.length - 1; i >= 0; i--) {
    const t = c.turns[i];
    if (t?.context) return { context: t.context, turn: t };
  }
  return null;
}

/** isStreaming reports whether a turn of the conversation is still running. */
export function isStreaming(c: Conversation): boolean {
  return c.turns.some((t) => t.status === "streaming");
}
