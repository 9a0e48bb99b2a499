import { describe, expect, it } from "vitest";
import { newTurn } from "./conversation";
import type { Turn } from "./conversation";
import { earlierAfterRetry, shownVersion, versionsOf } from "./versions";

const turn = (id: string, text: string, earlier?: Turn[]): Turn => ({
  ...newTurn({ userId: "u", id }, "q?", "kb://users/a/", "fake"),
  status: "done",
  parts: [{ kind: "text", text }],
  ...(earlier ? { earlier } : {}),
});

describe("versions", () => {
  const v1 = turn("1", "first");
  const v2 = turn("2", "second");
  const cur = turn("3", "third", [v1, v2]);

  it("lists earlier answers oldest first with the current one last", () => {
    expect(versionsOf(cur).map((t) => t.id)).toEqual(["1", "2", "3"]);
    expect(versionsOf(v1).map((t) => t.id)).toEqual(["1"]);
  });

  it("shows the current answer by default and when the pick is out of range", () => {
    expect(shownVersion(cur, null)).toMatchObject({ index: 2, count: 3, turn: { id: "3" } });
    expect(shownVersion(cur, 7).turn.id).toBe("3");
    expect(shownVersion(cur, -1).turn.id).toBe("3");
  });

  it("shows a picked earlier answer", () => {
    expect(shownVersion(cur, 0)).toMatchObject({ index: 0, count: 3, turn: { id: "1" } });
  });

  it("makes a retried answer the newest earlier version, flat", () => {
    const e = earlierAfterRetry(cur);
    expect(e.map((t) => t.id)).toEqual(["1", "2", "3"]);
    expect(e[2]!.earlier).toBeUndefined();
    expect(earlierAfterRetry(v1).map((t) => t.id)).toEqual(["1"]);
  });
});
