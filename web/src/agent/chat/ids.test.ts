import { describe, expect, it } from "vitest";
import { newMessageId } from "./ids";

describe("newMessageId", () => {
  it("uses crypto.randomUUID when it exists", () => {
    expect(newMessageId({ randomUUID: () => "uuid-1" })).toBe("uuid-1");
  });

  it("falls back to timestamp + counter without randomUUID, unique every time", () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newMessageId({})));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^m-[0-9a-z]+-[0-9a-z]+$/);
  });

  it("falls back when there is no crypto at all or randomUUID throws", () => {
    expect(newMessageId(null)).toMatch(/^m-/);
    expect(
      newMessageId({
        randomUUID: () => {
          throw new Error("insecure context");
        },
      }),
    ).toMatch(/^m-/);
  });
});
