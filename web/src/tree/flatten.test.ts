import { describe, expect, it } from "vitest";
import type { ResourceNode } from "../api/types";
import { flattenTree, flattenWorkspace, treeStatus } from "./flatten";
import { SHARED_ROOT } from "../api/uri";
import type { FolderState } from "./flatten";

const root = "kb://users/admin/";
const dir = (uri: string): ResourceNode => ({ uri, name: uri.split("/").at(-2)!, kind: "dir", size: 0, updated_at: "", generated: false });
const file = (uri: string): ResourceNode => ({ uri, name: uri.split("/").at(-1)!, kind: "file", size: 1, updated_at: "", generated: false });
const ok = (items: ResourceNode[], nextCursor: string | null = null): FolderState => ({ items, nextCursor, status: "success" });

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
      [data.uri, { items: [], nextCursor: null, status: "error", error: "boom" }],
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
    const folders = new Map([[root, ok([notes], "c1")]]);
    const rows = flattenTree(root, new Set([notes.uri]), folders);
    expect(summary(rows)).toEqual(["notes/", "  <loading>", "<more>"]);
    expect(rows.at(-1)).toMatchObject({ type: "more", folder: root });
  });

  it("gives every row a unique key", () => {
    const folders = new Map([
      [root, ok([notes, welcome], "c2")],
      [notes.uri, ok([], null)],
    ]);
    const rows = flattenTree(root, new Set([notes.uri]), folders);
    expect(new Set(rows.map((r) => r.key)).size).toBe(rows.length);
  });
});

describe("flattenWorkspace", () => {
  const shared = (items: ResourceNode[], nextCursor: string | null = null): FolderState => ({ items, nextCursor, status: "success", access: "read" });
  const papers: ResourceNode = { ...dir("kb://users/alice/papers/"), owner: "alice", role: "read" };
  const paper = file("kb://users/alice/papers/p.md");

  it("leaves the section out while nothing is shared, loading, or failing", () => {
    const base = new Map([[root, ok([welcome])]]);
    const want = ["Welcome.md"];
    expect(summary(flattenWorkspace(root, new Set([SHARED_ROOT]), base))).toEqual(want);
    expect(summary(flattenWorkspace(root, new Set([SHARED_ROOT]), new Map([...base, [SHARED_ROOT, shared([])]])))).toEqual(want);
    const failed: FolderState = { items: [], nextCursor: null, status: "error", error: "invalid uri" };
    expect(summary(flattenWorkspace(root, new Set([SHARED_ROOT]), new Map([...base, [SHARED_ROOT, failed]])))).toEqual(want);
  });

  it("adds the section below the own tree, its entries one level deeper and expandable", () => {
    const folders = new Map([
      [root, ok([notes, welcome])],
      [SHARED_ROOT, shared([papers])],
      [papers.uri, ok([paper])],
    ]);
    expect(summary(flattenWorkspace(root, new Set([SHARED_ROOT, papers.uri]), folders))).toEqual([
      "notes",
      "Welcome.md",
      "Shared with me/",
      "  papers/",
      "    p.md",
    ]);
    expect(summary(flattenWorkspace(root, new Set(), folders))).toEqual(["notes", "Welcome.md", "Shared with me"]);
  });

  it("pages the section like a folder", () => {
    const folders = new Map([
      [root, ok([welcome])],
      [SHARED_ROOT, shared([papers], "c1")],
    ]);
    const rows = flattenWorkspace(root, new Set([SHARED_ROOT]), folders);
    expect(summary(rows)).toEqual(["Welcome.md", "Shared with me/", "  papers", "  <more>"]);
    expect(rows.at(-1)).toMatchObject({ type: "more", folder: SHARED_ROOT });
  });
});

describe("treeStatus", () => {
  const at = (state?: FolderState) => flattenTree(root, new Set(), state ? new Map([[root, state]]) : new Map());

  it("is busy while the first listing loads, so the tree is not read as broken", () => {
    expect(treeStatus(at())).toEqual({ busy: true });
  });

  it("moves an empty or failed root's note out of the tree", () => {
    const empty = at(ok([]));
    expect(treeStatus(empty)).toEqual({ busy: false, note: empty[0] });
    const failed = at({ items: [], nextCursor: null, status: "error", error: "boom" });
    expect(treeStatus(failed).note).toMatchObject({ type: "error", message: "boom" });
  });

  it("leaves a tree with items alone, loading subfolders included", () => {
    const rows = at(ok([welcome], "c1"));
    expect(treeStatus(rows)).toEqual({ busy: false });
  });
});
