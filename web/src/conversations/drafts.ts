// The unsent question of each conversation, kept in localStorage so a reload
// or a switch to another conversation does not lose it. Drafts stay on this
// device; nothing is sent to the server.

const PREFIX = "knowspace.draft.";
/** MAX_DRAFTS bounds what old conversations leave behind; the oldest go first. */
export const MAX_DRAFTS = 30;
const INDEX = `${PREFIX}index`;

/**
 * draftKey names the draft of a conversation: a stored one by its id; one
 * not stored yet (page-only history, or before its first answer) by folder.
 */
export function draftKey(conversationId: number | string | null | undefined, scope: string): string {
  return conversationId !== null && conversationId !== undefined && conversationId !== "" ? `c:${conversationId}` : `scope:${scope}`;
}

function readIndex(store: Storage): string[] {
  try {
    const v: unknown = JSON.parse(store.getItem(INDEX) ?? "[]");
    return Array.isArray(v) ? v.filter((k): k is string => typeof k === "string") : [];
  } catch {
    return [];
  }
}

function storage(): Storage | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null;
  }
}

/** loadDraft is the saved draft of key, or "". */
export function loadDraft(key: string, store: Storage | null = storage()): string {
  try {
    return store?.getItem(PREFIX + key) ?? "";
  } catch {
    return "";
  }
}

/** saveDraft keeps text as key's draft; blank text removes it. */
export function saveDraft(key: string, text: string, store: Storage | null = storage()): void {
  if (!store) return;
  try {
    const index = readIndex(store).filter((k) => k !== key);
    if (text.trim() === "") {
      store.removeItem(PREFIX + key);
    } else {
      store.setItem(PREFIX + key, text);
      index.push(key);
      while (index.length > MAX_DRAFTS) store.removeItem(PREFIX + index.shift()!);
    }
    store.setItem(INDEX, JSON.stringify(index));
  } catch {
    // Storage full or refused (private mode): the draft lasts for this page only.
  }
}
