// Versions of one answer: Retry and Edit keep the replaced answers, and the
// pager under an answer flips between them. The current answer is the last.

import type { Turn } from "./conversation";

/** versionsOf is every answer to a turn's question, oldest first, the current one last. */
export function versionsOf(t: Turn): Turn[] {
  return [...(t.earlier ?? []), t];
}

/**
 * shownVersion is the answer to show: picked is a 0-based index into
 * versionsOf, null (or out of range) meaning the current answer.
 */
export function shownVersion(t: Turn, picked: number | null): { turn: Turn; index: number; count: number } {
  const all = versionsOf(t);
  const index = picked !== null && picked >= 0 && picked < all.length ? picked : all.length - 1;
  return { turn: all[index]!, index, count: all.length };
}

/**
 * retried is the turn being replaced by a Retry, made an earlier version of
 * the answer that replaces it (its own earlier versions come along, flat).
 */
export function earlierAfterRetry(old: Turn): Turn[] {
  const { earlier, ...rest } = old;
  return [...(earlier ?? []), rest];
}
