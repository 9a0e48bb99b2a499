// Where "Move…" offers to put the selection: the own tree's loaded folders,
// never compile output, never into what moves, never where it already is.

import { describe, expect, it } from "vitest";
import type { ResourceNode } from "../api/types";
import type { FolderState } from "./flatten";
import { moveTargets } from "./MoveDialog";

const R = "kb://users/a/";
const node = (uri: string, generated = false): ResourceNode => ({
  uri,
  name: uri.split("/").filter(Boolean).at(-1)!,
  kind: uri.endsWith("/") ? "dir" : "file",
  size: 0,
  updated_at: "",
  generated,
});
const listed = (...items: ResourceNode[]): FolderState => ({ items, nextCursor: null, status: "success", access: "owner" });
const folders = new Map<string, FolderState>([
  [R, listed(node(`${R}notes/`), node(`${R}data/`), node(`${R}wiki/`, true), node(`${R}x.md`))],
  [`${R}notes/`, listed(node(`${R}notes/archive/`), node(`${R}notes/plan.md`))],
  [`${R}wiki/`, listed(node(`${R}wiki/notes/`, true))],
  ["kb://users/b/shared/", { ...listed(), access: "read" }],
]);

describe("moveTargets", () => {
  it("offers the own loaded folders but the one it is in, and no compile output", () => {
    expect(moveTargets([`${R}x.md`], R, folders)).toEqual([`${R}data/`, `${R}notes/`, `${R}notes/archive/`]);
  });

  it("never offers a folder inside what moves", () => {
    expect(moveTargets([`${R}notes/`], R, folders)).toEqual([`${R}data/`]);
  });

  it("offers the root to a file below it", () => {
    expect(moveTargets([`${R}notes/plan.md`, `${R}x.md`], R, folders)).toEqual([R, `${R}data/`, `${R}notes/`, `${R}notes/archive/`]);
  });
});
