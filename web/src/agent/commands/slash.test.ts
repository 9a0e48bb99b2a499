import { describe, expect, it } from "vitest";
import { menuMatches, parseInput } from "./slash";

describe("parseInput", () => {
  it.each([
    ["ls", "ls"],
    ["  LS ", "ls"],
    ["compile", "compile"],
    ["compiler", "compile"],
    ["parse", "compile"],
    ["/ls", "ls"],
    ["/compile", "compile"],
    ["/status", "status"],
    ["/new", "new"],
  ])("%j is the command %s", (input, command) => {
    expect(parseInput(input)).toEqual({ kind: "command", command });
  });

  it.each(["ls the folder", "please compile this", "what does parse mean?", "compile\nnow"])("%j is a question", (input) => {
    expect(parseInput(input)).toEqual({ kind: "message", text: input.trim() });
  });

  it("reports empty input and unknown slash commands", () => {
    expect(parseInput("  \n ")).toEqual({ kind: "empty" });
    expect(parseInput("/nope")).toEqual({ kind: "unknown_command", text: "/nope" });
  });

  it("keeps a slash followed by words as a question", () => {
    expect(parseInput("/ls is what?")).toEqual({ kind: "message", text: "/ls is what?" });
  });
});

describe("menuMatches", () => {
  it("opens on a lone slash and filters by prefix", () => {
    expect(menuMatches("/")?.map((c) => c.name)).toEqual(["ls", "compile", "status", "new"]);
    expect(menuMatches("/c")?.map((c) => c.name)).toEqual(["compile"]);
    expect(menuMatches("/parse")?.map((c) => c.name)).toEqual(["compile"]);
    expect(menuMatches("/zz")).toEqual([]);
  });

  it("stays closed for ordinary text", () => {
    expect(menuMatches("")).toBeNull();
    expect(menuMatches("hello /")).toBeNull();
    expect(menuMatches("/ls now")).toBeNull();
  });
});
