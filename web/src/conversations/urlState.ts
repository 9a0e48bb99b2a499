// The open stored conversation lives in the address (?c=<id>), so a reload,
// a bookmark and back/forward bring it back.

const PARAM = "c";

/** conversationFromSearch is the id in ?c=, or null when absent or not a positive integer. */
export function conversationFromSearch(search: string): number | null {
  const v = new URLSearchParams(search).get(PARAM);
  if (!v || !/^\d+$/.test(v)) return null;
  const n = Number(v);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** withConversation is href with ?c= set to id, or removed for null; other parameters stay. */
export function withConversation(href: string, id: number | null): string {
  const url = new URL(href);
  if (id === null) url.searchParams.delete(PARAM);
  else url.searchParams.set(PARAM, String(id));
  return url.href;
}
