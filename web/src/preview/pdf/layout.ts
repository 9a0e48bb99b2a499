// The arithmetic of the PDF viewer, apart from pdf.js so it is unit-tested:
// zoom steps, which page the reader is on, and which text-layer pieces hold
// a cited passage.

/** CSS pixels per PDF point at 100 %: a PDF point is 1/72 in, a CSS pixel 1/96 in. */
export const PDF_TO_CSS = 96 / 72;

/** ZOOM_STEPS are the zooms Zoom in and Zoom out move between (1 = actual size). */
export const ZOOM_STEPS = [0.25, 0.5, 0.67, 0.8, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4];
const MIN_ZOOM = 0.25;
const MAX_ZOOM = 4;

/** zoomIn is the next step above zoom (the largest when there is none). */
export function zoomIn(zoom: number): number {
  return ZOOM_STEPS.find((z) => z > zoom * 1.001) ?? MAX_ZOOM;
}

/** zoomOut is the next step below zoom (the smallest when there is none). */
export function zoomOut(zoom: number): number {
  return [...ZOOM_STEPS].reverse().find((z) => z < zoom * 0.999) ?? MIN_ZOOM;
}

/**
 * fitZoom is the zoom at which a page of widthPt points fills width CSS
 * pixels, within the steps' range.
 */
export function fitZoom(width: number, widthPt: number): number {
  if (width <= 0 || widthPt <= 0) return 1;
  const z = width / (widthPt * PDF_TO_CSS);
  return Math.min(Math.max(z, MIN_ZOOM), MAX_ZOOM);
}

/** PageBox is where a page lies in the scrolled column, in CSS pixels. */
export interface PageBox {
  top: number;
  bottom: number;
}

/**
 * pageBoxes lays pages of the given heights out in a column: pad above the
 * first, gap between them. The viewer places pages by these numbers, so a
 * jump needs no page drawn and no DOM read.
 */
export function pageBoxes(heights: readonly number[], gap: number, pad: number): PageBox[] {
  let y = pad;
  return heights.map((h) => {
    const box = { top: y, bottom: y + h };
    y += h + gap;
    return box;
  });
}

/**
 * pageAt is the 1-based page at the probe line y: the page under it, or
 * the page after the gap it falls into.
 */
export function pageAt(boxes: readonly PageBox[], y: number): number {
  const i = boxes.findIndex((b) => y < b.bottom);
  return i < 0 ? Math.max(1, boxes.length) : i + 1;
}

/**
 * nearPages lists the 1-based pages worth drawing: those within one view's
 * height above or below the view [top, top+height).
 */
export function nearPages(boxes: readonly PageBox[], top: number, height: number): Set<number> {
  const from = top - height;
  const to = top + 2 * height;
  const near = new Set<number>();
  boxes.forEach((b, i) => {
    if (b.bottom > from && b.top < to) near.add(i + 1);
  });
  return near;
}

const QUOTES = /^["“”'‘’「『]+|["“”'‘’」』]+$/g;

/**
 * citedPassage is what to look for on a page for a jump: the searched
 * words without their quotes, else the start of the cited text (its first
 * non-empty line, at most maxChars).
 */
export function citedPassage(text: string, query?: string, maxChars = 80): string {
  if (query && query.trim()) return query.trim().replace(QUOTES, "").trim();
  const line = text.split("\n").find((l) => l.trim() !== "") ?? "";
  return [...line.trim()].slice(0, maxChars).join("");
}

/**
 * passageItems says which text items of a page (a text layer's pieces, in
 * order) hold the passage: the pieces the first match overlaps. White space
 * is ignored on both sides, as a PDF's text items split words and lines
 * where they please; when the whole passage is not on the page, its first
 * eight, four, two and one words are tried in turn.
 */
export function passageItems(items: readonly string[], passage: string): number[] {
  const owner: number[] = [];
  let flat = "";
  items.forEach((s, i) => {
    for (const ch of squeeze(s)) {
      flat += ch;
      owner.push(i);
    }
  });
  const words = passage.trim().split(/\s+/).filter(Boolean);
  const tries = [passage, ...[8, 4, 2, 1].filter((n) => n < words.length).map((n) => words.slice(0, n).join(" "))];
  for (const t of tries) {
    const needle = [...squeeze(t)];
    if (needle.length < 2) continue;
    const at = codePointIndex(flat, needle.join(""));
    if (at < 0) continue;
    return [...new Set(owner.slice(at, at + needle.length))];
  }
  return [];
}

function squeeze(s: string): string[] {
  return [...s.toLocaleLowerCase().replace(/\s+/g, "")];
}

function codePointIndex(hay: string, needle: string): number {
  const i = hay.indexOf(needle);
  return i < 0 ? -1 : [...hay.slice(0, i)].length;
}
