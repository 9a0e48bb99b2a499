import { describe, expect, it } from "vitest";
import { splitFrontMatter } from "./frontMatter";

const summary = `---
generated: true
role: summary
sources:
  - uri: "kb://users/ann/notes/plan.md"
    sha256: 0f3c
    pages: 17
  - uri: "kb://users/ann/notes/b.pdf"
    sha256: 9a1b
executor: llm
model: "fake"
skill: "Summary"
skill_id: "summary"
skill_hash: 1234abcd5678 # first 12 hex digits of the SHA-256 of the skill's prompt
prompt_version: "3"
job_id: 42
generated_at: 2026-12-05T10:11:12Z
---

# Plan

The summary.
`;

describe("splitFrontMatter", () => {
  it("reads a generated file's provenance block and returns the body after it", () => {
    const { meta, body } = splitFrontMatter(summary);
    expect(body).toBe("# Plan\n\nThe summary.\n");
    expect(meta?.fields).toMatchObject({ generated: "true", role: "summary", model: "fake", skill: "Summary", job_id: "42", generated_at: "2026-12-05T10:11:12Z" });
    expect(meta?.fields.skill_hash).toBe("1234abcd5678");
    expect(meta?.sources).toEqual([
      { uri: "kb://users/ann/notes/plan.md", sha256: "0f3c", pages: "17" },
      { uri: "kb://users/ann/notes/b.pdf", sha256: "9a1b" },
    ]);
  });

  it("leaves text without front matter alone", () => {
    expect(splitFrontMatter("# Title\n---\nx: y\n---\n")).toEqual({ meta: null, body: "# Title\n---\nx: y\n---\n" });
    expect(splitFrontMatter("---\nnot closed\n")).toEqual({ meta: null, body: "---\nnot closed\n" });
  });
});
