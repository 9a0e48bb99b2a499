import { beforeEach, describe, expect, it } from "vitest";
import { MAX_DRAFTS, draftKey, loadDraft, saveDraft } from "./drafts";

beforeEach(() => localStorage.clear());

describe("drafts", () => {
  it("keys a stored conversation by id and an unstored one by folder", () => {
    expect(draftKey(12, "kb://users/a/")).toBe("c:12");
    expect(draftKey(null, "kb://users/a/notes/")).toBe("scope:kb://users/a/notes/");
    expect(draftKey("", "kb://users/a/")).toBe("scope:kb://users/a/");
  });
  it("keeps one draft per conversation and forgets a blank one", () => {
    saveDraft("c:1", "first question");
    saveDraft("c:2", "second");
    expect(loadDraft("c:1")).toBe("first question");
    expect(loadDraft("c:2")).toBe("second");
    saveDraft("c:1", "   ");
    expect(loadDraft("c:1")).toBe("");
    expect(localStorage.getItem("knowspace.draft.c:1")).toBeNull();
  });
  it("drops the oldest drafts past the limit, counting a rewrite as new", () => {
    for (let i = 0; i <= MAX_DRAFTS; i++) saveDraft(`c:${i}`, `d${i}`);
    expect(loadDraft("c:0")).toBe("");
    expect(loadDraft("c:1")).toBe("d1");
    saveDraft("c:1", "again");
    saveDraft("c:new", "x");
    expect(loadDraft("c:1")).toBe("again");
    expect(loadDraft("c:2")).toBe("");
  });
  it("survives a storage that refuses writes", () => {
    const full = {
      getItem: () => null,
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
      removeItem: () => undefined,
    } as unknown as Storage;
    expect(() => saveDraft("c:1", "x", full)).not.toThrow();
    expect(loadDraft("c:1", null)).toBe("");
  });
});
