// GET /api/v1/search: names and content under a folder, or the hits of one
// file in order (find-in-file). As every list, the content hits are items
// and the opaque cursor of the next page is next_cursor.

import { requestJSON } from "./client";
import type { components, operations } from "./schema";

export type SearchKind = "all" | "name" | "content";

/**
 * SearchMode is how q is matched: literal (one exact string, the default
 * for scripts), ranked (the words of a question, best files first), hybrid
 * and meaning (need an embedding model on the server).
 */
export type SearchMode = NonNullable<NonNullable<operations["search"]["parameters"]["query"]>["mode"]>;

/**
 * AnsweredMode is which path answered: index or scan for a literal search,
 * ranked for ranked retrieval, empty when no content was searched.
 */
export type AnsweredMode = components["schemas"]["SearchResultFields"]["mode"];

/**
 * NameMatch is a file or folder whose name contains the query (ignoring
 * case). The contract names the kind `type` (file|folder); the server sends
 * `kind` (file|dir) as listings do: isFolderMatch reads either.
 */
export interface NameMatch {
  uri: string;
  name: string;
  type?: "file" | "folder";
  kind?: "file" | "dir";
}

/** isFolderMatch reports whether a name match is a folder. */
export function isFolderMatch(m: NameMatch): boolean {
  return m.type === "folder" || m.kind === "dir" || m.uri.endsWith("/");
}

/** ContentHit is one match in a file's text; offset counts code points, as /resources/content does. */
export interface ContentHit {
  uri: string;
  /** 1-based line of the match, when the server says */
  line?: number;
  offset: number;
  /** text around the match, the match between « and » (a ranked passage marks each word of the query it holds) */
  snippet: string;
  /** the file is a summary compile made from others; originals rank above it */
  generated?: boolean;
}

export interface SearchResponse {
  uri: string;
  query: string;
  kind: SearchKind;
  mode: AnsweredMode;
  /** a ranked answer: files best first across the pages; matched_files counts the whole scope */
  ranked?: boolean;
  /** first page of kind name|all only */
  names?: NameMatch[] | null;
  names_complete?: boolean;
  /** the content hits of this page */
  items: ContentHit[] | null;
  scanned: number;
  matched_files: number;
  skipped_no_text: number;
  /** documents still having their text extracted, not searched yet */
  pending_files?: number;
  /** files a ranked search could not rank yet (being indexed, or too large) */
  unranked_files?: number;
  more_hits_in?: string[] | null;
  next_cursor: string | null;
  /** every file in scope considered and no more pages */
  complete: boolean;
  partial_file?: { uri: string; offset: number };
  note?: string;
}

export interface SearchParams {
  uri: string;
  q: string;
  kind?: SearchKind;
  /** without it the server searches literally */
  mode?: SearchMode;
  cursor?: string;
}

/** searchResources runs one page of a search. */
export function searchResources(p: SearchParams, signal?: AbortSignal): Promise<SearchResponse> {
  return requestJSON<SearchResponse>("/search", {
    query: { uri: p.uri, q: p.q, kind: p.kind ?? "all", mode: p.mode, cursor: p.cursor },
    signal,
  });
}
