// Which tree actions a folder allows: write actions go away where a folder is
// shared read-only, Share is offered on own nodes only.

import { describe, expect, it } from "vitest";
import type { Access, ResourceNode, ShareRole } from "../api/types";
import { SHARED_ROOT } from "../api/uri";
import { accessIn, canModify, canShare, canWriteIn } from "./access";
import type { FolderState } from "./flatten";

const root = "kb://users/bob/";
const node = (uri: string, extra: Partial<ResourceNode> = {}): ResourceNode => ({
  uri,
  name: uri,
  kind: uri.endsWith("/") ? "dir" : "file",
  size: 0,
  updated_at: "",
  generated: false,
  ...extra,
});
const entry = (uri: string, owner: string, role: ShareRole) => node(uri, { owner, role });
const ok = (items: ResourceNode[], access?: Access): FolderState => ({ items, nextCursor: null, status: "success", access });

const papers = "kb://users/alice/papers/";
const specs = "kb://users/carol/specs/";
const folders = new Map<string, FolderState>([
  [SHARED_ROOT, ok([entry(papers, "alice", "read"), entry(specs, "carol", "write"), entry("kb://users/carol/plan.md", "carol", "write")], "read")],
  [papers, ok([node(`${papers}a.md`), node(`${papers}sub/`)], "read")],
  [specs, ok([node(`${specs}draft.md`), node(`${specs}old/`)], "write")],
]);

describe("accessIn", () => {
  it.each([
    ["the own root", root, "owner"],
    ["an own folder not loaded", `${root}deep/er/`, "owner"],
    ["the Shared with me heading", SHARED_ROOT, "read"],
    ["a read-only shared folder, from its listing", papers, "read"],
    ["a subfolder not loaded yet inherits", `${papers}sub/`, "read"],
    ["a writable shared folder", specs, "write"],
    ["below it, not loaded yet", `${specs}old/x/`, "write"],
    ["a foreign folder outside any share", "kb://users/alice/private/", "read"],
    ["not a user tree", "kb://other/", "read"],
  ])("%s", (_name, folder, want) => {
    expect(accessIn(folder, root, folders)).toBe(want);
  });

  it("falls back to the entry's role before the folder's own listing loads", () => {
    const early = new Map([[SHARED_ROOT, folders.get(SHARED_ROOT)!]]);
    expect(accessIn(specs, root, early)).toBe("write");
    expect(accessIn(papers, root, early)).toBe("read");
  });
});

describe("canWriteIn and canModify", () => {
  it("allows writes in own and writable shared folders only", () => {
    expect(canWriteIn(root, root, folders)).toBe(true);
    expect(canWriteIn(specs, root, folders)).toBe(true);
    expect(canWriteIn(papers, root, folders)).toBe(false);
    expect(canWriteIn(SHARED_ROOT, root, folders)).toBe(false);
  });

  it.each([
    ["an own file", `${root}notes/a.md`, true],
    ["the own root", root, false],
    ["the heading", SHARED_ROOT, false],
    ["a shared entry, even with write", specs, false],
    ["a shared file entry", "kb://users/carol/plan.md", false],
    ["a file in a writable shared folder", `${specs}draft.md`, true],
    ["a file in a read-only shared folder", `${papers}a.md`, false],
    ["a folder in a read-only shared folder", `${papers}sub/`, false],
  ])("%s", (_name, uri, want) => {
    expect(canModify(uri, root, folders)).toBe(want);
  });
});

describe("canShare", () => {
  it.each([
    [`${root}notes/`, true],
    [`${root}notes/a.md`, true],
    [root, false],
    [papers, false],
    [`${specs}draft.md`, false],
    [SHARED_ROOT, false],
  ])("%s", (uri, want) => {
    expect(canShare(uri, root)).toBe(want);
  });
});
