// Revealing a file in the tree opens exactly the folders between the root and it.

import { describe, expect, it } from "vitest";
import { ancestorsOf } from "./Workspace";

describe("ancestorsOf", () => {
  const root = "kb://users/a/";
  it.each([
    ["a file at the root", "kb://users/a/x.md", []],
    ["a nested file", "kb://users/a/wiki/notes/x.md", ["kb://users/a/wiki/", "kb://users/a/wiki/notes/"]],
    ["a folder", "kb://users/a/wiki/notes/", ["kb://users/a/wiki/"]],
    ["outside the root", "kb://users/b/notes/x.md", []],
  ])("%s", (_name, uri, want) => {
    expect(ancestorsOf(uri, root)).toEqual(want);
  });
});
