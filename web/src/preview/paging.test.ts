import { describe, expect, it } from "vitest";
import { codePointLength, csvPageText, isPaged, pageSpan } from "./paging";
import { previewKind } from "./previewKind";

describe("paging", () => {
  it("counts code points, not UTF-16 units", () => {
    expect(codePointLength("abc")).toBe(3);
    expect(codePointLength("会议纪要")).toBe(4);
    expect(codePointLength("😀x")).toBe(2);
  });

  it("describes the span of a page", () => {
    expect(pageSpan({ offset: 0, text: "会议😀", total: 10, next_offset: 3 })).toEqual({ from: 1, to: 3, total: 10 });
    expect(pageSpan({ offset: 3, text: "", total: 3, next_offset: null })).toEqual({ from: 0, to: 0, total: 3 });
  });

  it("knows when a body spans pages", () => {
    expect(isPaged({ offset: 0, next_offset: null })).toBe(false);
    expect(isPaged({ offset: 0, next_offset: 6000 })).toBe(true);
    expect(isPaged({ offset: 6000, next_offset: null })).toBe(true);
  });

  it("keeps only complete CSV lines of a page", () => {
    const whole = "a,b\n1,2\n3,4\n";
    expect(csvPageText(whole, true, true)).toBe(whole);
    expect(csvPageText("a,b\n1,2\n3,", true, false)).toBe("a,b\n1,2\n");
    expect(csvPageText(",2\n3,4\n5,6", false, true)).toBe("3,4\n5,6");
    expect(csvPageText(",2\n3,4\n5,", false, false)).toBe("3,4\n");
    expect(csvPageText("no newline", false, false)).toBe("");
  });
});

describe("previewKind", () => {
  it.each([
    ["Welcome.md", "raw", "markdown"],
    ["会议纪要.md", "l2", "markdown"],
    ["metrics.csv", "raw", "csv"],
    ["main.go", "raw", "code"],
    ["notes.txt", "raw", "text"],
    ["paper.pdf", "l2", "text"],
    ["README", "raw", "text"],
  ] as const)("%s (%s) → %s", (name, body, want) => {
    expect(previewKind(name, body)).toBe(want);
  });
});
