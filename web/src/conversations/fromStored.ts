// A stored conversation shown again: its messages become turns with their
// tool cards (name, arguments, summary; the full output is not stored).

import i18n from "../i18n";
import type { StoredMessage } from "../api/conversations";
import type { Conversation, Turn, TurnPart, TurnStatus } from "../agent/chat/conversation";

function statusOf(m: StoredMessage): TurnStatus {
  if (m.status === "complete") return "done";
  if (m.status === "stopped") return "stopped";
  // Still being written: the page follows it (useAgentChat) from its first event.
  if (m.status === "streaming") return "streaming";
  return "error";
}

function answerTurn(user: StoredMessage, answer: StoredMessage | undefined, scope: string): Turn {
  const parts: TurnPart[] = [];
  const tools: Turn["tools"] = {};
  if (answer?.status === "streaming") {
    return { userId: String(user.id), id: String(answer.id), question: user.content, scope, modelId: answer.model_id ?? user.model_id, status: "streaming", parts, tools };
  }
  if (answer?.reasoning) parts.push({ kind: "reasoning", text: answer.reasoning });
  for (const c of answer?.tool_calls ?? []) {
    parts.push({ kind: "tool", id: c.id });
    tools[c.id] = {
      call: { id: c.id, name: c.name, arguments: c.arguments },
      result: { id: c.id, name: c.name, ok: c.ok, summary: c.summary, bytes: 0, uri: c.uri },
    };
  }
  if (answer?.content) parts.push({ kind: "text", text: answer.content });
  const t: Turn = {
    userId: String(user.id),
    id: answer ? String(answer.id) : `pending-${user.id}`,
    question: user.content,
    scope,
    modelId: answer?.model_id ?? user.model_id,
    // A question without a stored answer was cut off before its end.
    status: answer ? statusOf(answer) : "error",
    parts,
    tools,
  };
  const earlier = (answer?.earlier ?? []).map((e) => answerTurn(user, { ...e, earlier: undefined }, scope));
  if (earlier.length) t.earlier = earlier;
  if (answer?.error) t.error = answer.error;
  else if (!answer) t.error = { code: "interrupted", message: i18n.t("conversations:notStored") };
  if (answer && t.status === "done") {
    const calls = answer.tool_calls?.length ?? 0;
    t.done = { finish_reason: "stop", steps: calls + 1, tool_calls: calls, model_calls: calls + 1, estimate: 0, usage: answer.usage };
  }
  return t;
}

/** turnsOf pairs each user message with the assistant message after it. */
export function turnsOf(messages: StoredMessage[], scope: string): Turn[] {
  const out: Turn[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== "user") continue;
    const next = messages[i + 1];
    const answer = next && next.role === "assistant" ? next : undefined;
    out.push(answerTurn(m, answer, scope));
    if (answer) i++;
  }
  return out;
}

/** storedConversation is the page's conversation for a stored one. */
export function storedConversation(id: number, scope: string, messages: StoredMessage[]): Conversation {
  return { id: `stored-${id}`, scope, turns: turnsOf(messages, scope) };
}
