// Stored conversations (issue 14, docs: notes/conversations-api.md). A server
// without them answers the list with 404: the web app then keeps history in
// the page only, as before (see conversationsSupported).

import { ApiError, request, requestJSON } from "./client";
import type { components } from "./schema";

type Schemas = components["schemas"];

export type StoredConversation = Schemas["Conversation"];

export type StoredToolCall = StoredMessage["tool_calls"][number];

export type StoredMessage = Schemas["Message"];

export type ConversationPage = Schemas["ConversationPage"];

const BASE = "/knowledge-agent/conversations";

/** listConversations is one page, newest first; uri filters by folder, q searches titles and text. */
export async function listConversations(
  params: { uri?: string; q?: string; cursor?: string; limit?: number },
  signal?: AbortSignal,
): Promise<ConversationPage> {
  const page = await requestJSON<ConversationPage>(BASE, { query: { ...params }, signal });
  return { ...page, items: page.items ?? [] };
}

/** conversationsSupported reads a list failure: 404 (or 405) means this server has no stored conversations. */
export function conversationsUnsupported(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 404 || err.status === 405);
}

/** getConversation is one conversation; allVersions adds each answer's earlier versions. */
export function getConversation(
  id: number,
  signal?: AbortSignal,
  allVersions = false,
): Promise<Schemas["ConversationDetail"]> {
  return requestJSON(`${BASE}/${id}`, { signal, query: allVersions ? { versions: "all" } : undefined });
}

export function renameConversation(id: number, title: string): Promise<StoredConversation> {
  return requestJSON(`${BASE}/${id}`, { method: "PATCH", json: { title } });
}

export async function deleteConversation(id: number): Promise<void> {
  await request(`${BASE}/${id}`, { method: "DELETE" });
}

/** exportConversation is the conversation as Markdown, with the file name the server suggests. */
export async function exportConversation(id: number): Promise<{ blob: Blob; name: string }> {
  const res = await request(`${BASE}/${id}/export`, { query: { format: "md" } });
  const cd = res.headers.get("Content-Disposition") ?? "";
  const m = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(cd);
  return { blob: await res.blob(), name: m ? decodeURIComponent(m[1]!) : `conversation-${id}.md` };
}

/**
 * stopAnswer ends an answer being written, from any tab; one that already
 * ended (404) is fine: there is nothing left to stop.
 */
export async function stopAnswer(messageId: number): Promise<void> {
  try {
    await request(`/knowledge-agent/stream/${messageId}/stop`, { method: "POST" });
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404)) throw err;
  }
}
