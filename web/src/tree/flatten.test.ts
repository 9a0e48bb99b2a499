import { describe, expect, it } from "vitest";
import type { ResourceNode } from "../api/types";
import { flattenTree } from "./flatten";
import type { FolderState } from "./flatten";

const root = "kb://users/admin/";
const dir = (uri: string): ResourceNode => ({ uri, name: uri.split("/").at(-2)!, kind: "dir", size: 0, updated_at: "", generated: false });
const file = (uri: string): ResourceNode => ({ uri, name: uri.split("/").at(-1)!, kind: "file", size: 1, updated_at: "", generated: false });
const ok = (items: ResourceNode[], nextOffset: number | null = null): FolderState => ({ items, nextOffset, status: "success" });

const notes = dir(root + "notes/");
const data = dir(root + "data/");
const welcome = file(root + "Welcome.md");
const plan = file(root + "notes/research-plan.md");
const archive = dir(root + "notes/archive/");

function summary(rows: ReturnType<typeof flattenTree>): string[] {
  return rows.map((r) => (r.type === "node" ? `${"  ".repeat(r.depth)}${r.node.name}${r.expanded ? "/" : ""}` : `${"  ".repeat(r.depth)}<${r.type}>`));
}

describe("flattenTree", () => {
  it("shows loading for a root not loaded yet", () => {
    expect(summary(flattenTree(root, new Set(), new Map()))).toEqual(["<loading>"]);
  });

  it("lists the root and skips children of collapsed folders", () => {
    const folders = new Map([
      [root, ok([data, notes, welcome])],
      [notes.uri, ok([archive, plan])],
    ]);
    expect(summary(flattenTree(root, new Set(), folders))).toEqual(["data", "notes", "Welcome.md"]);
  });

  it("nests expanded folders in order, with loading, empty and error rows", () => {
    const folders = new Map<string, FolderState>([
      [root, ok([data, notes, welcome])],
      [notes.uri, ok([archive, plan])],
      [archive.uri, ok([])],
      [data.uri, { items: [], nextOffset: null, status: "error", error: "boom" }],
    ]);
    const expanded = new Set([notes.uri, archive.uri, data.uri]);
    expect(summary(flattenTree(root, expanded, folders))).toEqual([
      "data/",
      "  <error>",
      "notes/",
      "  archive/",
      "    <empty>",
      "  research-plan.md",
      "Welcome.md",
    ]);
  });

  it("ends a folder with more pages with a 'more' row", () => {
    const folders = new Map([[root, ok([notes], 1)]]);
    const rows = flattenTree(root, new Set([notes.uri]), folders);
    expect(summary(rows)).toEqual(["notes/", "  <loading>", "<more>"]);
    expect(rows.at(-1)).toMatchObject({ type: "more", folder: root });
  });

  it("gives every row a unique key", () => {
    const folders = new Map([
      [root, ok([notes, welcome], 2)],
      [notes.uri, ok([], null)],
    ]);
    const rows = flattenTree(root, new Set([notes.uri]), folders);
    expect(new Set(rows.map((r) => r.key)).size).toBe(rows.length);
  });
});
