// The tree's multi-selection as pure functions of the visible rows: a plain
// click or arrow selects one row, Ctrl/Cmd-click toggles one, Shift-click and
// Shift+Arrow select the range from the anchor. The current row (the one the
// preview shows, the tree's active descendant) is kept apart: it moves with
// the clicks and keys, and the workspace owns it.

import type { NodeRow } from "./treeKeys";

/** Picked is the selection: its rows in the order they were picked, and the anchor of a range. */
export interface Picked {
  /** the current row this selection was made with; another current (set from outside) voids it */
  current: string | null;
  uris: readonly string[];
  /** where a Shift range starts */
  anchor: string | null;
}

export const NOTHING_PICKED: Picked = { current: null, uris: [], anchor: null };

/** single is the selection of one row, the usual one. */
export function single(uri: string | null): Picked {
  return { current: uri, uris: uri ? [uri] : [], anchor: uri };
}

/**
 * selectionOf is what is selected while current is the current row: the
 * picked rows when they were picked with that current, else current alone
 * (the selection moved outside the tree: a search hit, a citation).
 */
export function selectionOf(picked: Picked, current: string | null): Picked {
  return picked.current === current ? picked : single(current);
}

/** rangeOf is the rows from a to b, both included, in view order; just b when a is not in view. */
export function rangeOf(rows: readonly NodeRow[], a: string | null, b: string): string[] {
  const j = rows.findIndex((r) => r.node.uri === b);
  const i = a === null ? -1 : rows.findIndex((r) => r.node.uri === a);
  if (i < 0 || j < 0) return [b];
  const [lo, hi] = i <= j ? [i, j] : [j, i];
  return rows.slice(lo, hi + 1).map((r) => r.node.uri);
}

export interface ClickMods {
  /** Ctrl or Cmd held */
  toggle: boolean;
  /** Shift held */
  range: boolean;
}

/**
 * clickPick is the selection after a click on uri with mods, and whether the
 * current row moves to uri (a Ctrl-click that takes a row out of the
 * selection leaves the current row, and the preview, where they were).
 */
export function clickPick(rows: readonly NodeRow[], picked: Picked, uri: string, mods: ClickMods): { picked: Picked; move: boolean } {
  if (mods.range) {
    const range = rangeOf(rows, picked.anchor ?? picked.current, uri);
    const uris = mods.toggle ? union(picked.uris, range) : range;
    return { picked: { current: uri, uris, anchor: picked.anchor ?? picked.current ?? uri }, move: true };
  }
  if (mods.toggle) {
    if (picked.uris.includes(uri)) return { picked: { ...picked, uris: picked.uris.filter((u) => u !== uri) }, move: false };
    return { picked: { current: uri, uris: [...picked.uris, uri], anchor: uri }, move: true };
  }
  return { picked: single(uri), move: true };
}

/** extendPick is the selection after Shift+Arrow moved the current row to uri: the range from the anchor. */
export function extendPick(rows: readonly NodeRow[], picked: Picked, uri: string): Picked {
  const anchor = picked.anchor ?? picked.current ?? uri;
  return { current: uri, uris: rangeOf(rows, anchor, uri), anchor };
}

/** inViewOrder lists uris in the order of the rows, those out of view (a closed folder's) last. */
export function inViewOrder(rows: readonly NodeRow[], uris: readonly string[]): string[] {
  const at = new Map(rows.map((r, i) => [r.node.uri, i]));
  return [...uris].sort((a, b) => (at.get(a) ?? rows.length) - (at.get(b) ?? rows.length));
}

function union(a: readonly string[], b: readonly string[]): string[] {
  const seen = new Set(a);
  return [...a, ...b.filter((u) => !seen.has(u))];
}
