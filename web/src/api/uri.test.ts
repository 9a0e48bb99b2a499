import { describe, expect, it } from "vitest";
import {
  ancestorFolders,
  childURI,
  extensionOf,
  folderOf,
  isFolderURI,
  isWithin,
  nameOf,
  parentURI,
  relativePath,
  renamedURI,
  rootURI,
  validateName,
} from "./uri";

const root = "kb://users/admin/";

describe("uri helpers", () => {
  it("builds the personal root", () => {
    expect(rootURI("admin")).toBe(root);
  });

  it.each([
    ["kb://users/admin/notes/plan.md", "plan.md", "kb://users/admin/notes/", false],
    ["kb://users/admin/notes/", "notes", "kb://users/admin/", true],
    ["kb://users/admin/会议纪要.md", "会议纪要.md", "kb://users/admin/", false],
    ["kb://users/admin/", "admin", "kb://users/", true],
    ["kb://users/", "users", null, true],
  ])("%s: name %s, parent %s", (uri, name, parent, folder) => {
    expect(nameOf(uri)).toBe(name);
    expect(parentURI(uri)).toBe(parent);
    expect(isFolderURI(uri)).toBe(folder);
  });

  it("returns null parent for non-kb strings", () => {
    expect(parentURI("/etc/passwd")).toBeNull();
  });

  it("names children and renames in place", () => {
    expect(childURI(root, "notes", "dir")).toBe("kb://users/admin/notes/");
    expect(childURI("kb://users/admin/notes", "a.md", "file")).toBe("kb://users/admin/notes/a.md");
    expect(renamedURI("kb://users/admin/notes/a.md", "b.md")).toBe("kb://users/admin/notes/b.md");
    expect(renamedURI("kb://users/admin/notes/", "papers")).toBe("kb://users/admin/papers/");
    expect(() => renamedURI("kb://users/", "x")).toThrow();
  });

  it("finds the folder of a node", () => {
    expect(folderOf("kb://users/admin/notes/a.md")).toBe("kb://users/admin/notes/");
    expect(folderOf("kb://users/admin/notes/")).toBe("kb://users/admin/notes/");
  });

  it("tests containment without prefix confusion", () => {
    expect(isWithin("kb://users/admin/notes/a.md", "kb://users/admin/notes/")).toBe(true);
    expect(isWithin("kb://users/admin/notes/", "kb://users/admin/notes/")).toBe(true);
    expect(isWithin("kb://users/admin/notes-old/a.md", "kb://users/admin/notes/")).toBe(false);
    // A file is not a container, even when another name starts with it.
    expect(isWithin("kb://users/admin/a.md.bak", "kb://users/admin/a.md")).toBe(false);
  });

  it("lists the folders to expand to reveal a node", () => {
    expect(ancestorFolders("kb://users/admin/notes/archive/2025-retro.md", root)).toEqual([
      "kb://users/admin/notes/",
      "kb://users/admin/notes/archive/",
    ]);
    expect(ancestorFolders("kb://users/admin/Welcome.md", root)).toEqual([]);
    expect(ancestorFolders(root, root)).toEqual([]);
    expect(ancestorFolders("kb://users/bob/x.md", root)).toEqual([]);
  });

  it("shows paths relative to the root", () => {
    expect(relativePath("kb://users/admin/notes/a.md", root)).toBe("notes/a.md");
    expect(relativePath(root, root)).toBe("");
    expect(relativePath("kb://users/bob/x", root)).toBe("kb://users/bob/x");
  });

  it("reads extensions", () => {
    expect(extensionOf("a.MD")).toBe("md");
    expect(extensionOf("archive.tar.gz")).toBe("gz");
    expect(extensionOf(".hidden")).toBe("");
    expect(extensionOf("README")).toBe("");
  });

  it.each([
    ["notes", null],
    ["会议纪要.md", null],
    ["", "Name is empty."],
    ["   ", "Name is empty."],
    [" lead", "Name cannot start or end with spaces."],
    [".", '"." is not a valid name.'],
    ["..", '".." is not a valid name.'],
    ["a/b", "Name cannot contain / or \\."],
    ["a\\b", "Name cannot contain / or \\."],
    ["a\u0007b", "Name cannot contain control characters."],
    ["a%2Fb", "Name cannot contain encoded separators."],
    ["x".repeat(256), "Name is longer than 255 characters."],
    ["界".repeat(255), null],
  ])("validateName(%j) = %j", (name, want) => {
    expect(validateName(name)).toBe(want);
  });
});
