// A compiled summary opens with its provenance as properties — what wrote
// it, when, from which sources — not as Markdown's rule and a bullet of
// jammed hashes; a source opens its file.

import { act } from "react";
import { describe, expect, it, vi } from "vitest";
import { mountEach } from "../testing/mount";
import "../i18n";
import type { ContentPage } from "../api/types";
import { PageBody } from "./FilePreview";

const text = `---
generated: true
role: summary
sources:
  - uri: "kb://users/ann/notes/plan.pdf"
    sha256: 0f3c
    pages: 17
executor: llm
model: "fake"
skill: "Summary"
skill_hash: 1234abcd5678 # first 12 hex digits of the SHA-256 of the skill's prompt
generated_at: 2026-12-05T10:11:12Z
---

# Plan

The summary says what the plan is.
`;

const summary = { uri: "kb://users/ann/wiki/notes/plan.pdf.md", offset: 0, limit: 6000, next_offset: null, total: text.length, body: "raw", text } as ContentPage;

describe("a generated summary", () => {
  const page = mountEach();

  it("shows its front matter as properties, and a source opens its file", async () => {
    const open = vi.fn();
    page.render(<PageBody page={summary} name="plan.pdf.md" root="kb://users/ann/" onOpen={open} />);
    await vi.waitFor(() => expect(page.host.querySelector("article.markdown h1")?.textContent).toBe("Plan"), { timeout: 5000 });
    const props = page.host.querySelector('[data-testid="front-matter"]');
    expect(props?.textContent).toContain("Generated summary");
    expect(props?.textContent).toContain("fake");
    expect(props?.textContent).toContain("17 pages");
    expect(page.host.textContent).not.toContain("sha256");
    expect(page.host.textContent).not.toContain("1234abcd5678");
    expect(page.host.querySelector("article.markdown hr")).toBeNull();
    const source = [...(props?.querySelectorAll("button") ?? [])].find((b) => b.textContent === "notes/plan.pdf");
    act(() => source?.click());
    expect(open).toHaveBeenCalledWith("kb://users/ann/notes/plan.pdf");
  });

  it("leaves a note without front matter as it is", async () => {
    const note = { ...summary, uri: "kb://users/ann/n.md", text: "# Note\n\n---\n\nafter a rule\n" };
    page.render(<PageBody page={note} name="n.md" root="kb://users/ann/" />);
    await vi.waitFor(() => expect(page.host.querySelector("article.markdown h1")?.textContent).toBe("Note"), { timeout: 5000 });
    expect(page.host.querySelector('[data-testid="front-matter"]')).toBeNull();
    expect(page.host.querySelector("article.markdown hr")).not.toBeNull();
  });
});
