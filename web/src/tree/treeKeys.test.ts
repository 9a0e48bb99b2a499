import { describe, expect, it } from "vitest";
import type { ResourceNode } from "../api/types";
import { isTypeAheadKey, treeKeyAction, typeAheadMatch } from "./treeKeys";
import type { NodeRow } from "./treeKeys";

const R = "kb://users/admin/";
const node = (uri: string, depth: number, expanded = false): NodeRow => {
  const dir = uri.endsWith("/");
  const n: ResourceNode = { uri, name: uri.slice(0, dir ? -1 : undefined).split("/").at(-1)!, kind: dir ? "dir" : "file", size: 0, updated_at: "", generated: false };
  return { type: "node", key: uri, node: n, depth, expanded };
};

// notes/ is open with archive/ (open, empty) and research-plan.md; data/ is closed.
const rows: NodeRow[] = [
  node(R + "data/", 0),
  node(R + "notes/", 0, true),
  node(R + "notes/archive/", 1, true),
  node(R + "notes/research-plan.md", 1),
  node(R + "Welcome.md", 0),
  node(R + "whatever.txt", 0),
];

describe("treeKeyAction", () => {
  const cases: { name: string; selected: string | null; key: string; want: ReturnType<typeof treeKeyAction> }[] = [
    { name: "Down moves to the next row", selected: R + "data/", key: "ArrowDown", want: { kind: "select", uri: R + "notes/" } },
    { name: "Down on the last row stays", selected: R + "whatever.txt", key: "ArrowDown", want: null },
    { name: "Up on the first row stays", selected: R + "data/", key: "ArrowUp", want: null },
    { name: "Up moves into an open folder's last child", selected: R + "Welcome.md", key: "ArrowUp", want: { kind: "select", uri: R + "notes/research-plan.md" } },
    { name: "Home", selected: R + "Welcome.md", key: "Home", want: { kind: "select", uri: R + "data/" } },
    { name: "End", selected: R + "data/", key: "End", want: { kind: "select", uri: R + "whatever.txt" } },
    { name: "Right opens a closed folder", selected: R + "data/", key: "ArrowRight", want: { kind: "expand", uri: R + "data/" } },
    { name: "Right enters an open folder", selected: R + "notes/", key: "ArrowRight", want: { kind: "select", uri: R + "notes/archive/" } },
    { name: "Right on an open empty folder stays", selected: R + "notes/archive/", key: "ArrowRight", want: null },
    { name: "Right on a file does nothing", selected: R + "Welcome.md", key: "ArrowRight", want: null },
    { name: "Left closes an open folder", selected: R + "notes/", key: "ArrowLeft", want: { kind: "collapse", uri: R + "notes/" } },
    { name: "Left on a file goes to its folder", selected: R + "notes/research-plan.md", key: "ArrowLeft", want: { kind: "select", uri: R + "notes/" } },
    { name: "Left on a top-level file stays", selected: R + "Welcome.md", key: "ArrowLeft", want: null },
    { name: "with nothing selected Down picks the first row", selected: null, key: "ArrowDown", want: { kind: "select", uri: R + "data/" } },
    { name: "with nothing selected End picks the last row", selected: null, key: "End", want: { kind: "select", uri: R + "whatever.txt" } },
    { name: "other keys are not tree moves", selected: R + "data/", key: "x", want: null },
  ];
  for (const c of cases) it(c.name, () => expect(treeKeyAction(rows, c.selected, c.key)).toEqual(c.want));
  it("an empty tree has no moves", () => expect(treeKeyAction([], null, "ArrowDown")).toBeNull());
});

describe("typeAheadMatch", () => {
  const cases: { name: string; selected: string | null; prefix: string; want: string | null }[] = [
    { name: "first letter finds the next match", selected: R + "data/", prefix: "w", want: R + "Welcome.md" },
    { name: "the same letter again moves on", selected: R + "Welcome.md", prefix: "w", want: R + "whatever.txt" },
    { name: "and wraps around", selected: R + "whatever.txt", prefix: "w", want: R + "Welcome.md" },
    { name: "a longer prefix keeps the current match", selected: R + "whatever.txt", prefix: "wh", want: R + "whatever.txt" },
    { name: "a longer prefix narrows", selected: R + "Welcome.md", prefix: "wha", want: R + "whatever.txt" },
    { name: "case-insensitive, visible children too", selected: null, prefix: "RES", want: R + "notes/research-plan.md" },
    { name: "no match", selected: R + "data/", prefix: "zz", want: null },
  ];
  for (const c of cases) it(c.name, () => expect(typeAheadMatch(rows, c.selected, c.prefix)).toBe(c.want));
});

describe("isTypeAheadKey", () => {
  const k = (key: string, mods: Partial<{ ctrlKey: boolean; altKey: boolean; metaKey: boolean }> = {}) => ({ key, ctrlKey: false, altKey: false, metaKey: false, ...mods });
  it("takes letters and digits, not Space, named keys or shortcuts", () => {
    expect([k("a"), k("7"), k("研")].map(isTypeAheadKey)).toEqual([true, true, true]);
    expect([k(" "), k("ArrowDown"), k("a", { ctrlKey: true }), k("a", { metaKey: true })].map(isTypeAheadKey)).toEqual([false, false, false, false]);
  });
});
