import { describe, expect, it } from "vitest";
import { conversationFromSearch, withConversation } from "./urlState";

describe("conversation in the URL", () => {
  it("reads a positive id and ignores anything else", () => {
    expect(conversationFromSearch("?c=12&open=kb%3A%2F%2Fusers%2Fa%2F")).toBe(12);
    expect(conversationFromSearch("")).toBeNull();
    expect(conversationFromSearch("?c=0")).toBeNull();
    expect(conversationFromSearch("?c=-3")).toBeNull();
    expect(conversationFromSearch("?c=1e3")).toBeNull();
    expect(conversationFromSearch("?c=99999999999999999999")).toBeNull();
  });
  it("sets and removes the id, keeping other parameters", () => {
    const open = "http://h/?open=kb%3A%2F%2Fusers%2Fa%2Fx.md";
    const set = withConversation(open, 7);
    expect(conversationFromSearch(new URL(set).search)).toBe(7);
    expect(new URL(set).searchParams.get("open")).toBe("kb://users/a/x.md");
    expect(withConversation(set, null)).toBe(open);
  });
});
