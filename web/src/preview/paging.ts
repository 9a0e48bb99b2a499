// Paging arithmetic for the preview. Offsets and lengths count Unicode code
// points, as the API does.

import type { ContentPage } from "../api/types";

export interface PageSpan {
  /** first code point shown, 1-based, or 0 for an empty page */
  from: number;
  /** last code point shown, 1-based */
  to: number;
  total: number;
}

/** codePointLength counts code points, not UTF-16 units ("😀" is 1). */
export function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** pageSpan describes which part of the body a page shows. */
export function pageSpan(page: Pick<ContentPage, "offset" | "text" | "total" | "next_offset">): PageSpan {
  const len = codePointLength(page.text);
  if (len === 0) return { from: 0, to: 0, total: page.total };
  return { from: page.offset + 1, to: page.offset + len, total: page.total };
}

/** isPaged reports whether the body needs more than one page. */
export function isPaged(page: Pick<ContentPage, "offset" | "next_offset">): boolean {
  return page.offset > 0 || page.next_offset !== null;
}

/**
 * csvPageRows picks the complete lines of a CSV page: a page that starts
 * mid-file may begin inside a line and one that ends early may stop inside one.
 * Quoted newlines across a page edge are beyond what a page can know.
 */
export function csvPageText(text: string, first: boolean, last: boolean): string {
  let t = text;
  if (!first) {
    const nl = t.indexOf("\n");
    t = nl < 0 ? "" : t.slice(nl + 1);
  }
  if (!last) {
    const nl = t.lastIndexOf("\n");
    t = nl < 0 ? "" : t.slice(0, nl + 1);
  }
  return t;
}

/** pageCount is how many pages of size code points a body of total needs (at least 1). */
export function pageCount(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / size));
}

/** pageOf is the 1-based page an offset falls on. */
export function pageOf(offset: number, size: number): number {
  return Math.floor(offset / size) + 1;
}

/** pageStart is where a 1-based page begins, clamped to the file's pages. */
export function pageStart(page: number, total: number, size: number): number {
  const n = Math.min(Math.max(1, Math.trunc(page) || 1), pageCount(total, size));
  return (n - 1) * size;
}

/**
 * prevOffset is where Previous goes: the start of the page an unaligned
 * offset (a jump from a tool card) falls on, else the page before.
 */
export function prevOffset(offset: number, size: number): number {
  if (offset % size !== 0) return Math.floor(offset / size) * size;
  return Math.max(0, offset - size);
}

/** ReadingPosition is where a file was last read in this browser session. */
export interface ReadingPosition {
  offset: number;
  scrollTop: number;
}

const POSITION_KEY = "knowspace.reading:";

export function loadPosition(uri: string): ReadingPosition | null {
  try {
    const raw = sessionStorage.getItem(POSITION_KEY + uri);
    if (!raw) return null;
    const p = JSON.parse(raw) as Partial<ReadingPosition>;
    if (typeof p.offset !== "number" || typeof p.scrollTop !== "number" || p.offset < 0) return null;
    return { offset: p.offset, scrollTop: p.scrollTop };
  } catch {
    return null; // storage disabled or a corrupt entry: start at the top
  }
}

export function savePosition(uri: string, pos: ReadingPosition): void {
  try {
    sessionStorage.setItem(POSITION_KEY + uri, JSON.stringify(pos));
  } catch {
    /* storage full or disabled: the position is a convenience */
  }
}
