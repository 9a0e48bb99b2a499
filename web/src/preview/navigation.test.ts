// Page arithmetic for the page-number box, the reading position kept per
// file in the session, and the find count's wording.

import { beforeEach, describe, expect, it } from "vitest";
import { findLabel } from "./FindInFile";
import { loadPosition, pageCount, pageOf, pageStart, prevOffset, savePosition } from "./paging";

describe("page navigation", () => {
  it.each([
    [0, 1],
    [1, 1],
    [6000, 1],
    [6001, 2],
    [30_000_000, 5000],
  ])("a body of %i code points has %i pages", (total, want) => expect(pageCount(total, 6000)).toBe(want));

  it("pageStart clamps typed pages to the file", () => {
    expect(pageStart(3, 15000, 6000)).toBe(12000);
    expect(pageStart(99, 15000, 6000)).toBe(12000);
    expect(pageStart(0, 15000, 6000)).toBe(0);
    expect(pageStart(Number.NaN, 15000, 6000)).toBe(0);
  });

  it("Previous from a jump into the middle of a page goes to that page's start", () => {
    expect(prevOffset(6500, 6000)).toBe(6000);
    expect(prevOffset(12000, 6000)).toBe(6000);
    expect(prevOffset(0, 6000)).toBe(0);
    expect(pageOf(6500, 6000)).toBe(2);
  });
});

describe("reading position", () => {
  beforeEach(() => sessionStorage.clear());
  it("is kept per file and ignores corrupt entries", () => {
    savePosition("kb://users/a/x.md", { offset: 6000, scrollTop: 120 });
    expect(loadPosition("kb://users/a/x.md")).toEqual({ offset: 6000, scrollTop: 120 });
    expect(loadPosition("kb://users/a/y.md")).toBeNull();
    sessionStorage.setItem("knowspace.reading:kb://users/a/z.md", "{not json");
    expect(loadPosition("kb://users/a/z.md")).toBeNull();
  });
});

describe("findLabel", () => {
  const hit = { uri: "kb://users/a/x.md", offset: 1, snippet: "" };
  it("says whether the count is complete", () => {
    const f = { query: "q", current: 0, capped: false };
    expect(findLabel({ ...f, hits: [hit, hit], current: 1, cursor: null })).toBe("Hit 2 of 2 (whole file searched)");
    expect(findLabel({ ...f, hits: [hit], cursor: "s1.x" })).toBe("Hit 1 of 1+ (more to search)");
    expect(findLabel({ ...f, hits: [hit, hit], cursor: null, capped: true })).toBe("Hit 1 of 2+ (the server lists the first 2)");
    expect(findLabel({ ...f, hits: [], cursor: null })).toBe("No hits (whole file searched)");
  });
});
