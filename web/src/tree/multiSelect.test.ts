import { describe, expect, it } from "vitest";
import type { ResourceNode } from "../api/types";
import { clickPick, extendPick, inViewOrder, rangeOf, selectionOf, single } from "./multiSelect";
import type { NodeRow } from "./treeKeys";

const R = "kb://users/a/";
const row = (uri: string): NodeRow => {
  const n: ResourceNode = { uri, name: uri.split("/").filter(Boolean).at(-1)!, kind: uri.endsWith("/") ? "dir" : "file", size: 0, updated_at: "", generated: false };
  return { type: "node", key: uri, node: n, depth: 0, expanded: false };
};
const [A, B, C, D] = ["a.md", "b.md", "c.md", "d.md"].map((n) => R + n) as [string, string, string, string];
const rows = [A, B, C, D].map(row);

describe("multi-selection", () => {
  it("a plain click selects one row and moves the current row there", () => {
    expect(clickPick(rows, single(A), C, { toggle: false, range: false })).toEqual({ picked: single(C), move: true });
  });

  it("Ctrl-click adds a row (current moves) and takes one out (current stays)", () => {
    const two = clickPick(rows, single(A), C, { toggle: true, range: false });
    expect(two).toEqual({ picked: { current: C, uris: [A, C], anchor: C }, move: true });
    const back = clickPick(rows, two.picked, A, { toggle: true, range: false });
    expect(back).toEqual({ picked: { current: C, uris: [C], anchor: C }, move: false });
  });

  it("Shift-click selects the range from the anchor, either way; with Ctrl it adds to what was picked", () => {
    expect(clickPick(rows, single(B), D, { toggle: false, range: true }).picked).toEqual({ current: D, uris: [B, C, D], anchor: B });
    expect(clickPick(rows, single(C), A, { toggle: false, range: true }).picked.uris).toEqual([A, B, C]);
    const picked = { current: A, uris: [A], anchor: A };
    const ctrl = clickPick(rows, { ...picked, uris: [D], current: D, anchor: D }, B, { toggle: true, range: true });
    expect(ctrl.picked.uris).toEqual([D, B, C]);
  });

  it("Shift+arrow extends from the anchor and shrinks back", () => {
    const down = extendPick(rows, single(B), C);
    expect(down).toEqual({ current: C, uris: [B, C], anchor: B });
    expect(extendPick(rows, down, D).uris).toEqual([B, C, D]);
    expect(extendPick(rows, extendPick(rows, down, D), B).uris).toEqual([B]);
  });

  it("a current row set from outside the tree is selected alone", () => {
    const picked = { current: C, uris: [A, C], anchor: A };
    expect(selectionOf(picked, C)).toBe(picked);
    expect(selectionOf(picked, D)).toEqual(single(D));
    expect(selectionOf(picked, null)).toEqual({ current: null, uris: [], anchor: null });
  });

  it("lists a range and a selection in view order, rows out of view last", () => {
    expect(rangeOf(rows, "kb://users/a/gone.md", C)).toEqual([C]);
    expect(inViewOrder(rows, [D, "kb://users/a/x/y.md", A])).toEqual([A, D, "kb://users/a/x/y.md"]);
  });
});
