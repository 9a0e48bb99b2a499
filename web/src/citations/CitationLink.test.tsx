// Answers render kb:// URIs (Markdown links, bare text, inline code) as
// links that open the preview; a URI outside the chat's folder stays text.

import { act } from "react";
import { describe, expect, it } from "vitest";
import { mountEach } from "../testing/mount";
import MarkdownView from "../preview/MarkdownView";
import type { Citation } from "./citation";
import { CitationContext } from "./CitationContext";

const page = mountEach();

function render(text: string, opened: Citation[], answer = true) {
  act(() =>
    page.root.render(
      <CitationContext.Provider value={{ root: "kb://users/alice/", scope: "kb://users/alice/notes/", open: (c) => opened.push(c) }}>
        <MarkdownView text={text} answer={answer} />
      </CitationContext.Provider>,
    ),
  );
}

describe("citations in answers", () => {
  it("links Markdown, bare and inline-code URIs in scope and opens them at their line", () => {
    const opened: Citation[] = [];
    render("See [the plan](kb://me/notes/plan.md#L4), kb://users/alice/notes/a.md and `kb://me/notes/b.md#L2-L3`.", opened);
    const links = [...page.host.querySelectorAll<HTMLAnchorElement>("a.kb-link")];
    expect(links.map((a) => a.dataset.kbUri)).toEqual([
      "kb://users/alice/notes/plan.md",
      "kb://users/alice/notes/a.md",
      "kb://users/alice/notes/b.md",
    ]);
    expect(links[0]!.textContent).toBe("the plan");
    // A link written as its address reads as the path, its tooltip too.
    expect(links[1]!.textContent).toBe("notes/a.md");
    expect(links[0]!.title).toBe("Open notes/plan.md at line 4 in the preview");
    act(() => links[0]!.click());
    act(() => links[2]!.click());
    expect(opened).toEqual([
      { uri: "kb://users/alice/notes/plan.md", line: 4 },
      { uri: "kb://users/alice/notes/b.md", line: 2, endLine: 3 },
    ]);
  });
  it("shows URIs outside the folder as plain text and leaves code blocks alone", () => {
    render("Outside: kb://users/alice/secret.md and [x](kb://users/bob/a.md)\n\n```\nkb://me/notes/a.md\n```", []);
    expect(page.host.querySelectorAll("a").length).toBe(0);
    expect(page.host.querySelectorAll(".kb-cite-plain").length).toBe(2);
    expect(page.host.querySelector("pre")!.textContent).toContain("kb://me/notes/a.md");
  });
  it("does not link URIs in a previewed document", () => {
    render("kb://me/notes/a.md", [], false);
    expect(page.host.querySelectorAll("a").length).toBe(0);
  });
});
