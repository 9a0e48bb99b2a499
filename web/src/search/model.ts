// The tree search's results as pure data: a page merged into what is shown
// only when it answers the same search, the count line and the mode label,
// the options in the order they are drawn, the snippet's «» markers cut into
// marked runs, and what to find in a file a hit opens.

import i18n from "../i18n";
import { formatNumber } from "../ui/format";
import type { AnsweredMode, ContentHit, NameMatch, SearchMode, SearchResponse } from "../api/search";
import { searchNote } from "./searchNote";

/**
 * SearchKey is what a result was computed for: the scope, the text sent
 * (a quoted phrase without its quotes) and the mode asked for. A label or
 * a page for another key never joins it.
 */
export interface SearchKey {
  uri: string;
  q: string;
  mode: SearchMode;
}

export const sameKey = (a: SearchKey, b: SearchKey) => a.uri === b.uri && a.q === b.q && a.mode === b.mode;

/** Results are the pages of one search shown so far. */
export interface Results {
  key: SearchKey;
  names: NameMatch[];
  namesComplete: boolean;
  hits: ContentHit[];
  /** the next page's cursor; null when the search is complete */
  cursor: string | null;
  /** files with more matches than their hits show */
  moreHitsIn: string[];
  note?: string;
  /** which path answered: index or scan (literal), ranked */
  mode: AnsweredMode;
  /** a ranked answer's count of every file in scope that matches, whatever the page */
  matchedFiles: number;
}

/** firstPage starts the results of key with its first page. */
export function firstPage(key: SearchKey, res: SearchResponse): Results {
  return {
    key,
    names: res.names ?? [],
    namesComplete: res.names_complete ?? true,
    hits: res.items ?? [],
    cursor: res.complete ? null : res.next_cursor,
    moreHitsIn: res.more_hits_in ?? [],
    note: searchNote(res),
    mode: res.mode,
    matchedFiles: res.matched_files,
  };
}

/**
 * withMore appends the page fetched with cursor for key; it returns r itself
 * when the page answers another search or continues from another point (a
 * late answer to a request that was replaced).
 */
export function withMore(r: Results, key: SearchKey, cursor: string, res: SearchResponse): Results {
  if (!sameKey(r.key, key) || r.cursor !== cursor) return r;
  return {
    ...r,
    hits: [...r.hits, ...(res.items ?? [])],
    cursor: res.complete ? null : res.next_cursor,
    moreHitsIn: [...new Set([...r.moreHitsIn, ...(res.more_hits_in ?? [])])],
    note: searchNote(res) ?? r.note,
    matchedFiles: r.mode === "ranked" ? res.matched_files : r.matchedFiles,
  };
}

const t = (key: string, count: number) => i18n.t(key, { count, n: formatNumber(count) });

/**
 * countLabel says what the results hold and whether that is all of it:
 * "12 hits in 4 files" once complete, "40 hits so far · more available"
 * while pages remain; a ranked answer counts files, "42 matching files ·
 * best 10 shown · more available", as the server counts every matching
 * file on every page.
 */
export function countLabel(r: Results): string {
  const parts: string[] = [];
  if (r.names.length > 0) parts.push(t(r.namesComplete ? "search:count.names" : "search:count.namesAtLeast", r.names.length));
  const files = new Set(r.hits.map((h) => h.uri)).size;
  if (r.mode === "ranked" && r.hits.length > 0) {
    parts.push(t("search:count.rankedFiles", Math.max(r.matchedFiles, files)));
    if (r.cursor !== null) parts.push(i18n.t("search:count.rankedShown", { n: formatNumber(files) }));
  } else if (r.cursor !== null) parts.push(t("search:count.hitsSoFar", r.hits.length));
  else if (r.hits.length === 0) parts.push(r.names.length === 0 ? i18n.t("search:count.noMatches") : i18n.t("search:count.noContentHits"));
  else {
    parts.push(i18n.t("search:count.hitsInFiles", { hits: t("search:count.hits", r.hits.length), files: t("search:count.files", files) }));
    if (r.moreHitsIn.length > 0) parts.push(t("search:count.moreThanShown", r.moreHitsIn.length));
  }
  return parts.join(" · ");
}

/**
 * modeLabel names the way the server matched: by relevance (ranked) or the
 * exact text (a literal search, from the index or a scan); null when no
 * content was searched.
 */
export function modeLabel(r: Results): string | null {
  switch (r.mode) {
    case "ranked":
      return i18n.t("search:mode.ranked");
    case "hybrid":
      return i18n.t("search:mode.hybrid");
    case "meaning":
      return i18n.t("search:mode.meaning");
    case "index":
    case "scan":
      return i18n.t("search:mode.literal");
    default:
      return null;
  }
}

/**
 * findTextOf is what the preview finds in the file a hit opens: the text of
 * a literal search; for a ranked passage, whose words need not stand
 * together in the file, its first marked word; nothing when the passage
 * marks none (a file that matched by its name).
 */
export function findTextOf(key: SearchKey, hit: ContentHit): string | undefined {
  if (key.mode === "literal") return key.q;
  return snippetParts(hit.snippet).find((p) => p.mark)?.text;
}

/** FileGroup is one file's content hits, in the order they came. */
export interface FileGroup {
  uri: string;
  hits: ContentHit[];
  /** compile made the file from others (a summary): originals rank above it */
  generated: boolean;
}

/** groupByFile gathers hits per file, files in the order of their first hit. */
export function groupByFile(hits: readonly ContentHit[]): FileGroup[] {
  const groups = new Map<string, FileGroup>();
  for (const h of hits) {
    let g = groups.get(h.uri);
    if (!g) groups.set(h.uri, (g = { uri: h.uri, hits: [], generated: false }));
    g.hits.push(h);
    g.generated ||= h.generated === true;
  }
  return [...groups.values()];
}

/** Option is one pickable row of the list. */
export type Option = { kind: "name"; match: NameMatch } | { kind: "hit"; hit: ContentHit };

/** optionsOf lists the rows in drawing order: names first, then hits file by file. */
export function optionsOf(r: Results): Option[] {
  return [
    ...r.names.map((match): Option => ({ kind: "name", match })),
    ...groupByFile(r.hits).flatMap((g) => g.hits.map((hit): Option => ({ kind: "hit", hit }))),
  ];
}

/** moveActive is the option an arrow key goes to, wrapping; -1 is none. */
export function moveActive(active: number, count: number, key: "ArrowDown" | "ArrowUp"): number {
  if (count === 0) return -1;
  if (key === "ArrowDown") return active < 0 || active >= count - 1 ? 0 : active + 1;
  return active <= 0 ? count - 1 : active - 1;
}

/** SnippetPart is a run of a snippet, marked when it is the match. */
export interface SnippetPart {
  text: string;
  mark: boolean;
}

/** snippetParts cuts "…a «b» c…" into runs; an unclosed « marks to the end. */
export function snippetParts(snippet: string): SnippetPart[] {
  const out: SnippetPart[] = [];
  let rest = snippet;
  while (rest) {
    const open = rest.indexOf("«");
    if (open < 0) {
      out.push({ text: rest, mark: false });
      break;
    }
    if (open > 0) out.push({ text: rest.slice(0, open), mark: false });
    const close = rest.indexOf("»", open + 1);
    const end = close < 0 ? rest.length : close;
    if (end > open + 1) out.push({ text: rest.slice(open + 1, end), mark: true });
    rest = close < 0 ? "" : rest.slice(close + 1);
  }
  return out;
}
