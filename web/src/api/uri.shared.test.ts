// URI helpers for trees shared from other users (issue #21).

import { describe, expect, it } from "vitest";
import { SHARED_ROOT, displayPath, ownerOf, scopeFor, sharedEntryOf } from "./uri";

const root = "kb://users/bob/";

describe("ownerOf", () => {
  it.each([
    ["kb://users/alice/papers/x.md", "alice"],
    ["kb://users/alice/", "alice"],
    ["kb://users/", null],
    ["kb://users/alice", null],
    ["kb://shared/", null],
    ["https://users/alice/", null],
  ])("%s", (uri, want) => {
    expect(ownerOf(uri)).toBe(want);
  });
});

describe("sharedEntryOf", () => {
  const entries = ["kb://users/alice/papers/", "kb://users/alice/papers/drafts/", "kb://users/carol/plan.md"];
  it.each([
    ["a file in a shared folder", "kb://users/alice/papers/a.md", "kb://users/alice/papers/"],
    ["the deepest entry wins", "kb://users/alice/papers/drafts/b.md", "kb://users/alice/papers/drafts/"],
    ["a shared file itself", "kb://users/carol/plan.md", "kb://users/carol/plan.md"],
    ["a sibling not shared", "kb://users/alice/private/", null],
    ["a name sharing a prefix", "kb://users/alice/papers-old/x.md", null],
  ])("%s", (_name, uri, want) => {
    expect(sharedEntryOf(uri, entries)).toBe(want);
  });
});

describe("scopeFor", () => {
  const entries = ["kb://users/alice/papers/", "kb://users/carol/plan.md"];
  it.each([
    ["an own file: its folder", "kb://users/bob/notes/a.md", "kb://users/bob/notes/"],
    ["an own folder", "kb://users/bob/notes/", "kb://users/bob/notes/"],
    ["a shared folder, exactly as an own one", "kb://users/alice/papers/", "kb://users/alice/papers/"],
    ["a file in a shared folder", "kb://users/alice/papers/sub/x.md", "kb://users/alice/papers/sub/"],
    ["a shared file alone: its folder is not readable", "kb://users/carol/plan.md", null],
    ["the Shared with me heading", SHARED_ROOT, null],
    ["an unshared foreign folder", "kb://users/alice/private/", null],
  ])("%s", (_name, uri, want) => {
    expect(scopeFor(uri, root, entries)).toBe(want);
  });
});

describe("displayPath", () => {
  it.each([
    ["kb://users/bob/notes/a.md", "notes/a.md"],
    ["kb://users/alice/papers/a.md", "alice/papers/a.md"],
    ["kb://shared/", "kb://shared/"],
  ])("%s", (uri, want) => {
    expect(displayPath(uri, root)).toBe(want);
  });
});
