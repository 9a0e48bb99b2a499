import { describe, expect, it } from "vitest";
import { folderChoices, startFolder } from "./connectFolders";

const root = "kb://users/ana/";

describe("startFolder", () => {
  it("is the open folder, or the folder of the open file", () => {
    expect(startFolder("?open=" + encodeURIComponent(root + "notes/q3/"), root)).toBe(root + "notes/q3/");
    expect(startFolder("?open=" + encodeURIComponent(root + "notes/plan.md"), root)).toBe(root + "notes/");
  });
  it("is home without an open folder, or with one outside the own tree", () => {
    expect(startFolder("", root)).toBe(root);
    expect(startFolder("?open=" + encodeURIComponent("kb://users/bob/x/"), root)).toBe(root);
  });
});

describe("folderChoices", () => {
  it("names home first and the others by path, with a deeper start folder among them", () => {
    const got = folderChoices([root + "notes/", root + "docs/"], root, root + "notes/q3/", "Home");
    expect(got.map((c) => c.label)).toEqual(["Home", "docs/", "notes/", "notes/q3/"]);
    expect(got[3]!.uri).toBe(root + "notes/q3/");
  });
  it("lists the start folder once when it is a listed folder or home", () => {
    expect(folderChoices([root + "notes/"], root, root + "notes/", "Home").map((c) => c.label)).toEqual(["Home", "notes/"]);
    expect(folderChoices([root + "notes/"], root, root, "Home").map((c) => c.label)).toEqual(["Home", "notes/"]);
  });
});
