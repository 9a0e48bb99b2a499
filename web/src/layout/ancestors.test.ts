// Revealing a file in the tree opens exactly the folders between the root and
// it; one in someone else's tree opens "Shared with me" and the folders above it.

import { describe, expect, it } from "vitest";
import { revealFolders } from "../api/uri";
import { openFromURL } from "./Workspace";

const root = "kb://users/a/";

describe("revealFolders", () => {
  it.each([
    ["a file at the root", "kb://users/a/x.md", []],
    ["a nested file", "kb://users/a/wiki/notes/x.md", ["kb://users/a/wiki/", "kb://users/a/wiki/notes/"]],
    ["a folder", "kb://users/a/wiki/notes/", ["kb://users/a/wiki/"]],
    ["a shared file", "kb://users/b/papers/x.md", ["kb://shared/", "kb://users/b/papers/"]],
    ["a shared folder", "kb://users/b/papers/", ["kb://shared/"]],
    ["deep in a shared folder", "kb://users/b/p/q/x.md", ["kb://shared/", "kb://users/b/p/", "kb://users/b/p/q/"]],
    ["the shared section", "kb://shared/", []],
    ["not a user tree", "kb://other/x.md", []],
  ])("%s", (_name, uri, want) => {
    expect(revealFolders(uri, root)).toEqual(want);
  });
});

describe("openFromURL", () => {
  const q = (uri: string) => `?open=${encodeURIComponent(uri)}`;
  it.each([
    ["an own file", q("kb://users/a/notes/x.md"), "kb://users/a/notes/x.md"],
    ["a file in another's tree", q("kb://users/b/papers/x.md"), "kb://users/b/papers/x.md"],
    ["the own root", q("kb://users/a/"), null],
    ["the shared section", q("kb://shared/"), null],
    ["not a kb URI", q("https://example.com/"), null],
    ["nothing", "", null],
  ])("%s", (_name, search, want) => {
    expect(openFromURL(search, root)).toBe(want);
  });
});
