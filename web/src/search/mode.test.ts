// Which mode the search box asks for: ranked (or the preferred multi-word
// mode) for several words, literal for one word or a quoted phrase, whose
// quotes are not part of what is searched.

import { describe, expect, it } from "vitest";
import { searchRequestOf } from "./mode";

describe("searchRequestOf", () => {
  it.each([
    ["budget", { q: "budget", mode: "literal" }],
    ["  budget  ", { q: "budget", mode: "literal" }],
    ["how do quokkas sleep", { q: "how do quokkas sleep", mode: "ranked" }],
    ["quokka\tlanterns", { q: "quokka\tlanterns", mode: "ranked" }],
    // An ideographic space separates words too, as the server's strings.Fields does.
    ["预算\u3000表格", { q: "预算\u3000表格", mode: "ranked" }],
    ["预算表格", { q: "预算表格", mode: "literal" }],
    ['"quokka lanterns"', { q: "quokka lanterns", mode: "literal" }],
    ['" quokka lanterns "', { q: "quokka lanterns", mode: "literal" }],
    ["“quokka lanterns”", { q: "quokka lanterns", mode: "literal" }],
    ["「预算 表格」", { q: "预算 表格", mode: "literal" }],
    ['"budget"', { q: "budget", mode: "literal" }],
    // Quotes that do not wrap the whole query are part of it.
    ['say "hello" twice', { q: 'say "hello" twice', mode: "ranked" }],
    ['"unclosed phrase', { q: '"unclosed phrase', mode: "ranked" }],
    // Nothing inside the quotes: the quotes are the text.
    ['""', { q: '""', mode: "literal" }],
    ['"  "', { q: '"  "', mode: "literal" }],
    // Several "words" without a letter or digit cannot be ranked: exact text.
    ["-> =>", { q: "-> =>", mode: "literal" }],
    ["", { q: "", mode: "literal" }],
  ])("%j", (text, want) => {
    expect(searchRequestOf(text)).toEqual(want);
  });

  it("several words take the preferred multi-word mode; one word or a quote stays literal", () => {
    expect(searchRequestOf("how do quokkas sleep", "hybrid")).toEqual({ q: "how do quokkas sleep", mode: "hybrid" });
    expect(searchRequestOf("quokkas", "hybrid")).toEqual({ q: "quokkas", mode: "literal" });
    expect(searchRequestOf('"quokka lanterns"', "hybrid")).toEqual({ q: "quokka lanterns", mode: "literal" });
  });
});
