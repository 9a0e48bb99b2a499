// UI message ids. crypto.randomUUID exists only in secure contexts, so a
// plain-HTTP LAN page falls back to a timestamp and a module counter. The ids
// only key React lists and message updates; they are not credentials.

let counter = 0;

/** newMessageId returns a unique id for a chat message. */
export function newMessageId(cryptoImpl: { randomUUID?: () => string } | null | undefined = globalThis.crypto): string {
  const uuid = cryptoImpl?.randomUUID;
  if (typeof uuid === "function") {
    try {
      return uuid.call(cryptoImpl);
    } catch {
      // Some browsers throw outside a secure context instead of leaving it out.
    }
  }
  counter += 1;
  return `m-${Date.now().toString(36)}-${counter.toString(36)}`;
}
