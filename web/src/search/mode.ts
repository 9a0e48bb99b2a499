// What the search box asks the server for: the mode of the search and the
// text it searches. The REST default stays literal (scripts rely on it), so
// the box always names the mode; the rule is the one the search tool
// applies for a model (internal/knowledge/tools/search_mode.go).

import type { SearchMode } from "../api/search";

/** MultiWordMode is a mode a question of several words may run in. */
export type MultiWordMode = Exclude<SearchMode, "literal">;

/** SearchRequest is the q and mode one search sends. */
export interface SearchRequest {
  q: string;
  mode: SearchMode;
}

const QUOTES: readonly [string, string][] = [
  ['"', '"'],
  ["“", "”"],
  ["「", "」"],
];

/**
 * searchRequestOf reads what was typed: a phrase in double quotes (or “ ”,
 * 「 」) is searched literally without its quotes; several words run in
 * multiWord (ranked until the server offers meaning search, when the
 * caller may prefer hybrid); one word, or words without a letter or digit
 * (nothing a ranked search could match), is searched literally.
 */
export function searchRequestOf(text: string, multiWord: MultiWordMode = "ranked"): SearchRequest {
  const q = text.trim();
  const inner = unquoted(q);
  if (inner !== null) return { q: inner, mode: "literal" };
  const several = q.split(/\s+/).length > 1 && /[\p{L}\p{N}]/u.test(q);
  return { q, mode: several ? multiWord : "literal" };
}

/** unquoted is the text inside quotes that wrap all of q, or null. */
function unquoted(q: string): string | null {
  for (const [open, close] of QUOTES) {
    if (q.length > open.length + close.length && q.startsWith(open) && q.endsWith(close)) {
      const inner = q.slice(open.length, q.length - close.length).trim();
      if (inner) return inner;
    }
  }
  return null;
}
