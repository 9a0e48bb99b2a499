import { describe, expect, it } from "vitest";
import { inFlight, uploadBatches } from "./uploadBatches";

const f = (name: string, size: number) => new File([new Uint8Array(size)], name);

describe("uploadBatches", () => {
  it("keeps a small drop in one request", () => {
    expect(uploadBatches([f("a", 1), f("b", 2)]).map((b) => b.length)).toEqual([2]);
  });
  it("splits by file count", () => {
    const files = Array.from({ length: 250 }, (_, i) => f(`f${i}`, 1));
    expect(uploadBatches(files).map((b) => b.length)).toEqual([100, 100, 50]);
  });
  it("splits by size and sends an oversized file alone", () => {
    const out = uploadBatches([f("a", 6), f("b", 6), f("huge", 50), f("c", 1)], 100, 10);
    expect(out.map((b) => b.map((x) => x.name))).toEqual([["a"], ["b"], ["huge"], ["c"]]);
  });
  it("returns nothing for nothing", () => {
    expect(uploadBatches([])).toEqual([]);
  });
});

describe("inFlight", () => {
  const batch = [f("a", 10), f("b", 5), f("c", 1)];
  it("names the file whose bytes are going", () => {
    expect([0, 9, 10, 14, 15, 16].map((n) => inFlight(batch, n)?.name)).toEqual(["a", "a", "b", "b", "c", "c"]);
  });
});
