// The rules of the shown results: which pages may join them, what the count
// line claims, the option order and the snippet markers.

import { describe, expect, it } from "vitest";
import { isFolderMatch } from "../api/search";
import type { SearchResponse } from "../api/search";
import { countLabel, findTextOf, firstPage, modeLabel, moveActive, optionsOf, snippetParts, withMore } from "./model";

const KEY = { uri: "kb://users/a/", q: "log", mode: "literal" as const };

function page(over: Partial<SearchResponse>): SearchResponse {
  return {
    uri: KEY.uri, query: KEY.q, kind: "all", mode: "scan", items: [], scanned: 0, matched_files: 0,
    skipped_no_text: 0, next_cursor: null, complete: true, ...over,
  };
}
const hit = (f: string, offset: number) => ({ uri: `kb://users/a/${f}`, line: 1, offset, snippet: "«log»" });

describe("results", () => {
  const first = firstPage(KEY, page({ items: [hit("a.md", 1)], complete: false, next_cursor: "s1.a" }));

  it("take a page only for the same search from the same cursor", () => {
    const next = page({ items: [hit("b.md", 2)] });
    expect(withMore(first, { ...KEY, q: "logs" }, "s1.a", next)).toBe(first);
    expect(withMore(first, { ...KEY, uri: "kb://users/a/x/" }, "s1.a", next)).toBe(first);
    expect(withMore(first, KEY, "s1.old", next)).toBe(first);
    const both = withMore(first, KEY, "s1.a", next);
    expect(both.hits.map((h) => h.offset)).toEqual([1, 2]);
    expect(both.cursor).toBeNull();
  });

  it("a complete page has no cursor even if the server sent one", () => {
    expect(firstPage(KEY, page({ complete: true, next_cursor: "s1.z" })).cursor).toBeNull();
  });

  it("count line says whether it is all", () => {
    expect(countLabel(first)).toBe("1 hit so far · more available");
    expect(countLabel(firstPage(KEY, page({ items: [hit("a.md", 1), hit("a.md", 5), hit("b.md", 1)] })))).toBe("3 hits in 2 files");
    expect(countLabel(firstPage(KEY, page({})))).toBe("No matches");
    const names = [{ uri: "kb://users/a/log.md", name: "log.md", type: "file" as const }];
    expect(countLabel(firstPage(KEY, page({ names, names_complete: false })))).toBe("1+ names · no content hits");
  });

  it("a ranked answer counts the matching files of the whole scope, and says how it matched", () => {
    const RANKED = { ...KEY, q: "log rotation", mode: "ranked" as const };
    const r = firstPage(RANKED, page({ mode: "ranked", ranked: true, matched_files: 30, items: [hit("a.md", 1), hit("a.md", 9), hit("b.md", 1)], complete: false, next_cursor: "s1.r" }));
    expect(countLabel(r)).toBe("30 matching files · best 2 shown · more available");
    expect(modeLabel(r)).toBe("Ranked by relevance");
    const all = withMore(r, RANKED, "s1.r", page({ mode: "ranked", ranked: true, matched_files: 29, items: [hit("c.md", 1)] }));
    expect(countLabel(all)).toBe("29 matching files");
    expect(countLabel(firstPage(RANKED, page({ mode: "ranked", ranked: true })))).toBe("No matches");
    expect(modeLabel(firstPage(KEY, page({ mode: "index" })))).toBe("Exact text");
    expect(modeLabel(firstPage(KEY, page({ mode: "" })))).toBeNull();
  });

  it("a hit opens with the literal query to find, or a ranked passage's first marked word", () => {
    const h = { uri: "kb://users/a/a.md", offset: 3, snippet: "…the «Logs» «rotate» daily" };
    expect(findTextOf(KEY, h)).toBe("log");
    expect(findTextOf({ ...KEY, mode: "ranked" }, h)).toBe("Logs");
    expect(findTextOf({ ...KEY, mode: "ranked" }, { ...h, snippet: "# Title" })).toBeUndefined();
  });

  it("options are names, then hits file by file", () => {
    const r = firstPage(KEY, page({
      names: [{ uri: "kb://users/a/log/", name: "log", type: "folder" }],
      items: [hit("a.md", 1), hit("b.md", 1), hit("a.md", 9)],
    }));
    expect(optionsOf(r).map((o) => (o.kind === "name" ? o.match.name : `${o.hit.uri.slice(13)}@${o.hit.offset}`))).toEqual([
      "log", "a.md@1", "a.md@9", "b.md@1",
    ]);
  });

  it("a folder name match is told by the contract's type or the server's kind", () => {
    expect(isFolderMatch({ uri: "kb://users/a/x", name: "x", type: "folder" })).toBe(true);
    expect(isFolderMatch({ uri: "kb://users/a/x/", name: "x", kind: "dir" })).toBe(true);
    expect(isFolderMatch({ uri: "kb://users/a/x.md", name: "x.md", kind: "file" })).toBe(false);
  });

  it("arrow keys wrap, and start from none", () => {
    expect(moveActive(-1, 3, "ArrowDown")).toBe(0);
    expect(moveActive(2, 3, "ArrowDown")).toBe(0);
    expect(moveActive(-1, 3, "ArrowUp")).toBe(2);
    expect(moveActive(0, 3, "ArrowUp")).toBe(2);
    expect(moveActive(0, 0, "ArrowDown")).toBe(-1);
  });
});

describe("snippetParts", () => {
  it.each([
    ["…the «budget» is «Budget»…", [["…the ", false], ["budget", true], [" is ", false], ["Budget", true], ["…", false]]],
    ["no marks", [["no marks", false]]],
    ["«whole»", [["whole", true]]],
    ["cut «off", [["cut ", false], ["off", true]]],
    ["«预算»表", [["预算", true], ["表", false]]],
  ])("%s", (snippet, want) => {
    expect(snippetParts(snippet).map((p) => [p.text, p.mark])).toEqual(want);
  });
});
