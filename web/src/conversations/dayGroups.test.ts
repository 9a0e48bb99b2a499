import { describe, expect, it } from "vitest";
import { groupByDay } from "./dayGroups";

const at = (y: number, m: number, d: number, h = 12) => new Date(y, m - 1, d, h).toISOString();

describe("groupByDay", () => {
  const now = new Date(2026, 2, 10, 9); // 10 March 2026, 09:00 local
  const items = [
    { id: 1, t: at(2026, 3, 10, 8) },
    { id: 2, t: at(2026, 3, 10, 0) },
    { id: 3, t: at(2026, 3, 9, 23) },
    { id: 4, t: at(2026, 3, 2) },
    { id: 5, t: at(2026, 3, 2, 1) },
    { id: 6, t: at(2025, 12, 31) },
  ];

  it("starts a group at each local day, newest first: Today, Yesterday, then dates", () => {
    const groups = groupByDay(items, (i) => i.t, now, "en-US");
    expect(groups.map((g) => [g.key, g.items.map((i) => i.id)])).toEqual([
      ["2026-03-10", [1, 2]],
      ["2026-03-09", [3]],
      ["2026-03-02", [4, 5]],
      ["2025-12-31", [6]],
    ]);
    expect(groups.map((g) => g.label)).toEqual([
      { kind: "today" },
      { kind: "yesterday" },
      { kind: "date", text: "Mon, Mar 2" },
      { kind: "date", text: "Dec 31, 2025" },
    ]);
  });

  it("writes dates the way the locale does", () => {
    const groups = groupByDay(items, (i) => i.t, now, "zh-CN");
    expect(groups[2]?.label).toEqual({ kind: "date", text: "3月2日周一" });
    expect(groups[3]?.label).toEqual({ kind: "date", text: "2025年12月31日" });
  });

  it("is empty for no items", () => {
    expect(groupByDay([], () => "", now, "en-US")).toEqual([]);
  });
});
