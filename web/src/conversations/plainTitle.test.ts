import { describe, expect, it } from "vitest";
import { plainTitle } from "./plainTitle";

describe("plainTitle", () => {
  it.each([
    ["**Why** is the `alpha` build slow?", "Why is the alpha build slow?"],
    ["# Summary of the plan", "Summary of the plan"],
    ["## 计划的 **要点**", "计划的 要点"],
    ["What does [Welcome.md](kb://me/Welcome.md) say about _search_?", "What does Welcome.md say about search?"],
    ["> compare the notes", "compare the notes"],
    ["- which files?", "which files?"],
    ["1. first step", "first step"],
    ["- [x] done item", "done item"],
    ["~~old~~ new", "old new"],
    ["__Alpha__ release", "Alpha release"],
    ["***very*** important", "very important"],
    ["![chart](a.png) explained", "chart explained"],
    ["a <b>bold</b> word", "a bold word"],
  ])("%s", (md, want) => expect(plainTitle(md)).toBe(want));

  it("keeps what only looks like Markdown", () => {
    expect(plainTitle("read my_file_name.md and 2 * 3 = 6")).toBe("read my_file_name.md and 2 * 3 = 6");
    expect(plainTitle("C# or F#?")).toBe("C# or F#?");
    expect(plainTitle("snake_case_names")).toBe("snake_case_names");
    expect(plainTitle("")).toBe("");
  });
});
