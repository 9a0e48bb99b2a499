import { describe, expect, it } from "vitest";
import type { JobState, ResourceNode } from "../api/types";
import { fileBadge, isActiveJob } from "./badges";

type N = Pick<ResourceNode, "kind" | "job" | "summary">;
const file = (extra: Partial<N> = {}): N => ({ kind: "file", ...extra });
const kindOf = (n: N) => fileBadge(n)?.kind ?? null;

describe("fileBadge", () => {
  it("shows nothing for a file never compiled, or for a folder", () => {
    expect(fileBadge(file())).toBeNull();
    expect(fileBadge({ kind: "dir", job: { id: 1, state: "queued" }, summary: "stale" })).toBeNull();
  });

  it("maps job states and running stages", () => {
    expect(kindOf(file({ job: { id: 1, state: "queued" } }))).toBe("queued");
    expect(kindOf(file({ job: { id: 1, state: "running", stage: "parse" } }))).toBe("parsing");
    expect(kindOf(file({ job: { id: 1, state: "running", stage: "summarize" } }))).toBe("compiling");
    expect(kindOf(file({ job: { id: 1, state: "running", stage: "overview" } }))).toBe("compiling");
    expect(kindOf(file({ job: { id: 1, state: "running" } }))).toBe("compiling");
    expect(fileBadge(file({ job: { id: 1, state: "running", stage: "summarize" } }))?.title).toMatch(/summarize stage/);
  });

  it("an active job wins over the summary's freshness", () => {
    expect(kindOf(file({ job: { id: 2, state: "queued" }, summary: "stale" }))).toBe("queued");
    expect(kindOf(file({ job: { id: 2, state: "running", stage: "parse" }, summary: "fresh" }))).toBe("parsing");
  });

  it("a failure shows its reason in the title and mentions an older summary", () => {
    const b = fileBadge(file({ job: { id: 3, state: "failed", error: "model said no" }, summary: "stale" }));
    expect(b).toMatchObject({ kind: "failed", label: "failed", tone: "danger" });
    expect(b?.title).toContain("model said no");
    expect(b?.title).toMatch(/stale summary exists/);
    expect(fileBadge(file({ job: { id: 3, state: "failed" } }))?.title).toMatch(/no reason given/);
  });

  it("a failure with a code says its reason in the reader's words", () => {
    const b = fileBadge(file({ job: { id: 3, state: "failed", error: "blob.bin is a binary file of an unknown type", error_code: "unsupported_format" } }));
    expect(b?.title).toMatch(/^Compile failed: The file is of a type that cannot be read\.(?!\.)/);
    expect(b?.title).not.toContain("binary file");
  });

  it("summary freshness: stale is visible, fresh is subtle", () => {
    expect(fileBadge(file({ job: { id: 4, state: "succeeded" }, summary: "fresh" }))).toMatchObject({ kind: "fresh", label: "summary", tone: "subtle" });
    expect(fileBadge(file({ job: { id: 4, state: "succeeded" }, summary: "stale" }))).toMatchObject({ kind: "stale", label: "stale summary", tone: "warn" });
    // a summary without a job record (e.g. jobs pruned) still shows
    expect(kindOf(file({ summary: "stale" }))).toBe("stale");
    // succeeded without a summary has nothing to say
    expect(fileBadge(file({ job: { id: 4, state: "succeeded" } }))).toBeNull();
  });

  it("a cancelled job falls back to the summary, else says cancelled", () => {
    expect(kindOf(file({ job: { id: 5, state: "cancelled" }, summary: "fresh" }))).toBe("fresh");
    expect(fileBadge(file({ job: { id: 5, state: "cancelled" } }))).toMatchObject({ kind: "cancelled", tone: "subtle" });
  });

  it("unknown states degrade to the summary badge", () => {
    // A state a newer server may send, which the document does not list yet.
    const paused = "paused" as unknown as JobState;
    expect(kindOf(file({ job: { id: 6, state: paused }, summary: "stale" }))).toBe("stale");
    expect(isActiveJob("queued") && isActiveJob("running")).toBe(true);
    expect(isActiveJob("failed") || isActiveJob(undefined)).toBe(false);
  });
});
