import { describe, expect, it } from "vitest";
import { followable, parseCitation, splitURIs } from "./citation";

const ROOT = "kb://users/alice/";

describe("splitURIs", () => {
  it("finds bare URIs and trims sentence punctuation", () => {
    expect(splitURIs("See kb://users/alice/a.md#L3, then kb://me/b/c.txt.")).toEqual([
      { kind: "text", text: "See " },
      { kind: "uri", text: "kb://users/alice/a.md#L3" },
      { kind: "text", text: ", then " },
      { kind: "uri", text: "kb://me/b/c.txt" },
      { kind: "text", text: "." },
    ]);
  });
  it("stops at brackets and quotes and ignores a bare scheme", () => {
    expect(splitURIs('(kb://me/x.md) "kb://me/y.md" kb://')).toEqual([
      { kind: "text", text: "(" },
      { kind: "uri", text: "kb://me/x.md" },
      { kind: "text", text: ') "' },
      { kind: "uri", text: "kb://me/y.md" },
      { kind: "text", text: '" kb://' },
    ]);
  });
  it("leaves text without URIs whole", () => {
    expect(splitURIs("no links here")).toEqual([{ kind: "text", text: "no links here" }]);
  });
});

describe("parseCitation", () => {
  it("expands kb://me/ and reads a line or a range", () => {
    expect(parseCitation("kb://me/notes/a.md#L12", ROOT)).toEqual({ uri: "kb://users/alice/notes/a.md", line: 12 });
    expect(parseCitation("kb://users/alice/a.md#L3-L9", ROOT)).toEqual({ uri: "kb://users/alice/a.md", line: 3, endLine: 9 });
    expect(parseCitation("kb://users/alice/a.md#L3-9", ROOT)).toEqual({ uri: "kb://users/alice/a.md", line: 3, endLine: 9 });
  });
  it("drops a backwards range end, a zero line and other fragments", () => {
    expect(parseCitation("kb://me/a.md#L9-L3", ROOT)).toEqual({ uri: "kb://users/alice/a.md", line: 9 });
    expect(parseCitation("kb://me/a.md#L0", ROOT)).toEqual({ uri: "kb://users/alice/a.md" });
    expect(parseCitation("kb://me/a.md#intro", ROOT)).toEqual({ uri: "kb://users/alice/a.md" });
  });
  it("refuses other schemes", () => {
    expect(parseCitation("https://example.com", ROOT)).toBeNull();
  });
});

describe("followable", () => {
  const scope = "kb://users/alice/notes/";
  it("allows URIs in the conversation's folder", () => {
    expect(followable({ uri: "kb://users/alice/notes/a.md" }, scope)).toBe(true);
    expect(followable({ uri: "kb://users/alice/notes/" }, scope)).toBe(true);
  });
  it("refuses URIs outside it, in other trees, or climbing out", () => {
    expect(followable({ uri: "kb://users/alice/secret.md" }, scope)).toBe(false);
    expect(followable({ uri: "kb://users/bob/notes/a.md" }, scope)).toBe(false);
    expect(followable({ uri: "kb://users/alice/notes/../secret.md" }, scope)).toBe(false);
  });
});
