// The PDF viewer's arithmetic: zoom steps, the page under the reader's eye,
// and the text-layer pieces a cited passage lies in.

import { describe, expect, it } from "vitest";
import { citedPassage, fitZoom, nearPages, pageAt, pageBoxes, passageItems, zoomIn, zoomOut } from "./layout";

describe("zoom", () => {
  it("steps in and out from any zoom, and stops at the ends", () => {
    expect(zoomIn(1)).toBe(1.1);
    expect(zoomIn(0.93)).toBe(1);
    expect(zoomOut(1)).toBe(0.9);
    expect(zoomOut(0.93)).toBe(0.9);
    expect(zoomIn(4)).toBe(4);
    expect(zoomOut(0.25)).toBe(0.25);
  });
  it("fits a page's width", () => {
    // An A4 page is 595 pt wide, 793 px at 100 %.
    expect(fitZoom(793.33, 595)).toBeCloseTo(1, 2);
    expect(fitZoom(0, 595)).toBe(1);
    expect(fitZoom(10, 595)).toBe(0.25);
  });
});

describe("page layout", () => {
  const boxes = pageBoxes([100, 100, 100], 8, 8);
  it("stacks pages with a gap", () => {
    expect(boxes).toEqual([
      { top: 8, bottom: 108 },
      { top: 116, bottom: 216 },
      { top: 224, bottom: 324 },
    ]);
  });
  it("names the page under the probe, or the next one after a gap", () => {
    expect(pageAt(boxes, 0)).toBe(1);
    expect(pageAt(boxes, 50)).toBe(1);
    expect(pageAt(boxes, 110)).toBe(2);
    expect(pageAt(boxes, 300)).toBe(3);
    expect(pageAt(boxes, 900)).toBe(3);
    expect(pageAt([], 10)).toBe(1);
  });
  it("draws only the pages within a view's height of the view", () => {
    const many = pageBoxes(Array(50).fill(100), 0, 0);
    expect([...nearPages(many, 1000, 100)]).toEqual([10, 11, 12]);
    expect([...nearPages(many, 0, 100)]).toEqual([1, 2]);
  });
});

describe("citedPassage", () => {
  it("takes the searched words without quotes, else the cited line's start", () => {
    expect(citedPassage("whatever", '"amber lantern"')).toBe("amber lantern");
    expect(citedPassage("\n  The keeper wrote it.\nNext line")).toBe("The keeper wrote it.");
    expect(citedPassage("x".repeat(200))).toHaveLength(80);
  });
});

describe("passageItems", () => {
  const items = ["Harbour log, part 12", "The keeper wrote the amber lan", "tern signal into the", "harbour ledger at dusk."];
  it("finds a passage across pieces, ignoring white space and case", () => {
    expect(passageItems(items, "amber lantern signal")).toEqual([1, 2]);
    expect(passageItems(items, "HARBOUR LEDGER")).toEqual([3]);
  });
  it("falls back to the passage's first words", () => {
    expect(passageItems(items, "The keeper wrote the amber lantern signal nowhere near here at all today")).toEqual([1]);
    expect(passageItems(items, "amber lantern signal into the sea, said the keeper at dusk")).toEqual([1, 2]);
    expect(passageItems(items, "keeper says nothing")).toEqual([1]);
  });
  it("finds Chinese text split across pieces", () => {
    expect(passageItems(["会议纪", "要：预算"], "纪要")).toEqual([0, 1]);
  });
  it("finds nothing for a passage not on the page", () => {
    expect(passageItems(items, "lighthouse")).toEqual([]);
    expect(passageItems(items, "")).toEqual([]);
  });
});
