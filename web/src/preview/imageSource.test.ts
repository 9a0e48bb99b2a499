import { describe, expect, it } from "vitest";
import { classifyImage } from "./imageSource";

const doc = "kb://users/alice/notes/plan.md";

describe("classifyImage", () => {
  it.each([
    ["https://evil.example/p.png?q=secret", doc, { kind: "remote", url: "https://evil.example/p.png?q=secret" }],
    ["http://evil.example/p.png", undefined, { kind: "remote", url: "http://evil.example/p.png" }],
    ["//evil.example/p.png", doc, { kind: "remote", url: "//evil.example/p.png" }],
    ["/api/v1/resources/raw?uri=x", doc, { kind: "remote", url: "/api/v1/resources/raw?uri=x" }],
    ["javascript:alert(1)", doc, { kind: "remote", url: "javascript:alert(1)" }],
    ["data:image/svg+xml;base64,AAAA", doc, { kind: "remote", url: "data:image/svg+xml;base64,AAAA" }],
    ["data:image/png;base64,AAAA", doc, { kind: "inline", src: "data:image/png;base64,AAAA" }],
    ["kb://me/pics/a%20b.png", undefined, { kind: "workspace", uri: "kb://me/pics/a b.png" }],
    ["img/chart.png", doc, { kind: "workspace", uri: "kb://users/alice/notes/img/chart.png" }],
    ["./../pics/%E5%9B%BE.png", doc, { kind: "workspace", uri: "kb://users/alice/pics/图.png" }],
    ["../../../etc/passwd", doc, { kind: "remote", url: "../../../etc/passwd" }],
    ["img/chart.png", undefined, { kind: "remote", url: "img/chart.png" }],
    ["", doc, { kind: "remote", url: "" }],
  ])("%s in %s", (src, base, want) => {
    expect(classifyImage(src, base)).toEqual(want);
  });
});
