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
