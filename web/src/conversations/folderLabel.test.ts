import { describe, expect, it } from "vitest";
import { folderLabel } from "./folderLabel";

describe("folderLabel", () => {
  const root = "kb://users/ann/";
  it.each([
    ["kb://users/ann/", "Home"],
    ["kb://users/ann/notes/", "notes"],
    ["kb://users/ann/projects/alpha/", "projects/alpha"],
    ["kb://users/bob/shared/", "bob/shared"],
  ])("%s reads %s", (uri, want) => expect(folderLabel(uri, root, "Home")).toBe(want));
});
