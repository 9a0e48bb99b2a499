// The WAI-ARIA tree view keys, as a pure function of the visible rows, so the
// rules (which row Right enters, where Left goes, type-ahead) are unit-tested
// apart from the virtualized view.

import type { TreeRow } from "./flatten";

export type NodeRow = Extract<TreeRow, { type: "node" }>;

export type TreeKeyAction =
  | { kind: "select"; uri: string }
  | { kind: "expand"; uri: string }
  | { kind: "collapse"; uri: string };

/**
 * treeKeyAction says what an arrow, Home or End key does with the node rows in
 * view order and the selected URI (null: nothing selected yet, so any move
 * lands on the first row). It returns null for other keys and for moves that
 * go nowhere, e.g. Left on a top-level file.
 */
export function treeKeyAction(rows: readonly NodeRow[], selected: string | null, key: string): TreeKeyAction | null {
  if (rows.length === 0) return null;
  const i = rows.findIndex((r) => r.node.uri === selected);
  const select = (r: NodeRow | undefined): TreeKeyAction | null => (r ? { kind: "select", uri: r.node.uri } : null);
  if (i < 0) return ["ArrowDown", "ArrowUp", "Home", "End", "ArrowRight", "ArrowLeft"].includes(key) ? select(key === "End" ? rows.at(-1) : rows[0]) : null;
  const cur = rows[i]!;
  switch (key) {
    case "ArrowDown":
      return select(rows[i + 1]);
    case "ArrowUp":
      return select(rows[i - 1]);
    case "Home":
      return select(rows[0]);
    case "End":
      return select(rows.at(-1));
    case "ArrowRight":
      if (cur.node.kind !== "dir") return null;
      if (!cur.expanded) return { kind: "expand", uri: cur.node.uri };
      // Only a row one level deeper is a child: an empty or loading folder has none.
      return rows[i + 1]?.depth === cur.depth + 1 ? select(rows[i + 1]) : null;
    case "ArrowLeft": {
      if (cur.node.kind === "dir" && cur.expanded) return { kind: "collapse", uri: cur.node.uri };
      for (let j = i - 1; j >= 0; j--) if (rows[j]!.depth < cur.depth) return select(rows[j]);
      return null;
    }
    default:
      return null;
  }
}

/**
 * typeAheadMatch is the row whose name starts with prefix (case-insensitive),
 * searching forward from the selected row and wrapping. A one-letter prefix
 * starts after the selected row, so pressing the same letter again moves on
 * to the next match; a longer prefix may keep the selected row.
 */
export function typeAheadMatch(rows: readonly NodeRow[], selected: string | null, prefix: string): string | null {
  if (rows.length === 0 || prefix === "") return null;
  const want = prefix.toLocaleLowerCase();
  const i = rows.findIndex((r) => r.node.uri === selected);
  const start = i < 0 ? 0 : prefix.length === 1 ? i + 1 : i;
  for (let k = 0; k < rows.length; k++) {
    const r = rows[(start + k) % rows.length]!;
    if (r.node.name.toLocaleLowerCase().startsWith(want)) return r.node.uri;
  }
  return null;
}

/** TYPE_AHEAD_MS is how long a typed prefix lasts after its last key. */
export const TYPE_AHEAD_MS = 700;

/** isTypeAheadKey is true for one printable character typed without Ctrl, Alt or Meta. */
export function isTypeAheadKey(e: { key: string; ctrlKey: boolean; altKey: boolean; metaKey: boolean }): boolean {
  return e.key.length === 1 && e.key !== " " && !e.ctrlKey && !e.altKey && !e.metaKey;
}
