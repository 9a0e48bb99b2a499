import { describe, expect, it } from "vitest";
import { placeOf } from "./TrashDialog";

describe("placeOf", () => {
  it.each([
    ["kb://users/admin/notes/plan.md", "notes/"],
    ["kb://users/admin/notes/archive/", "notes/"],
    ["kb://users/admin/a/b/c.txt", "a/b/"],
    ["kb://users/admin/Welcome.md", "home"],
    ["kb://me/x/y.md", "x/"],
  ])("%s was in %s", (uri, want) => {
    expect(placeOf(uri)).toBe(want);
  });
});
