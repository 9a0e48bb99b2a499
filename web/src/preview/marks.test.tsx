// Find hits are marked by the views: case-insensitive, literal (no regexp
// syntax), and inside markdown's and highlighted code's elements.

import { act } from "react";
import { createRoot } from "react-dom/client";
import { describe, expect, it } from "vitest";
import MarkdownView, { CodeView } from "./MarkdownView";
import { splitMatches } from "./marks";

describe("splitMatches", () => {
  it("marks every occurrence ignoring case, the query taken literally", () => {
    expect(splitMatches("A.b a.B ab", "a.b")).toEqual([
      { text: "A.b", mark: true },
      { text: " ", mark: false },
      { text: "a.B", mark: true },
      { text: " ab", mark: false },
    ]);
    expect(splitMatches("plain", "x")).toEqual([{ text: "plain", mark: false }]);
    expect(splitMatches("行0400 行1400", "400").filter((p) => p.mark)).toHaveLength(2);
  });
});

describe("marked views", () => {
  function render(node: React.ReactNode): HTMLElement {
    const host = document.createElement("div");
    act(() => createRoot(host).render(node));
    return host;
  }
  const marks = (el: HTMLElement) => [...el.querySelectorAll("mark.find-hit")].map((m) => m.textContent);

  it("marks markdown text but not its syntax", () => {
    const el = render(<MarkdownView text={"# Zebra\n\nA **zebra** and [a link](zebra.md)."} mark="zebra" />);
    expect(marks(el)).toEqual(["Zebra", "zebra"]);
    expect(el.querySelector("a")!.getAttribute("href")).toBe("zebra.md");
  });

  it("marks highlighted code", () => {
    const el = render(<CodeView text={"const zebra = 1;\nzebra++"} language="js" mark="zebra" />);
    expect(marks(el)).toEqual(["zebra", "zebra"]);
  });
});
