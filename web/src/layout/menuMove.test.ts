import { describe, expect, it } from "vitest";
import { menuMove } from "./menuMove";

describe("menuMove", () => {
  it("moves down and up, wrapping at the ends", () => {
    expect(menuMove(0, 3, "ArrowDown")).toBe(1);
    expect(menuMove(2, 3, "ArrowDown")).toBe(0);
    expect(menuMove(0, 3, "ArrowUp")).toBe(2);
  });
  it("starts at the first or last item when none has focus", () => {
    expect(menuMove(-1, 3, "ArrowDown")).toBe(0);
    expect(menuMove(-1, 3, "ArrowUp")).toBe(2);
  });
  it("jumps with Home and End, and ignores other keys and empty menus", () => {
    expect(menuMove(1, 3, "Home")).toBe(0);
    expect(menuMove(1, 3, "End")).toBe(2);
    expect(menuMove(1, 3, "a")).toBeNull();
    expect(menuMove(-1, 0, "ArrowDown")).toBeNull();
  });
});
