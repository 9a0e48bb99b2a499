import { describe, expect, it } from "vitest";
import type { AdminUser, Group } from "../api/types";
import { memberCandidates, sortGroups, validateGroupName } from "./groupModel";

describe("validateGroupName", () => {
  it.each([
    ["team", null],
    ["r-and-d.2026_x", null],
    ["0day", null],
    ["a".repeat(64), null],
    ["", "Name is empty."],
    ["  ", "Name is empty."],
    ["Team", "Use lower-case letters only."],
    ["-team", "Name must start with a lower-case letter or a digit."],
    [".team", "Name must start with a lower-case letter or a digit."],
    ["my team", "Use only lower-case letters, digits, dots, dashes and underscores."],
    ["équipe", "Name must start with a lower-case letter or a digit."],
    ["a".repeat(65), "Name is longer than 64 characters."],
  ])("%j", (name, want) => {
    expect(validateGroupName(name)).toBe(want);
  });
});

const user = (id: number, username: string, disabled = false): AdminUser => ({ id, username, role: "user", disabled, created_at: "" });
const group = (name: string, members: [number, string][]): Group => ({
  id: name.length,
  name,
  created_at: "",
  members: members.map(([id, username]) => ({ id, username })),
});

describe("memberCandidates", () => {
  it("offers enabled accounts not in the group, by name", () => {
    const users = [user(1, "admin"), user(3, "carol"), user(2, "bob"), user(4, "dave", true)];
    expect(memberCandidates(users, group("team", [[2, "bob"]])).map((u) => u.username)).toEqual(["admin", "carol"]);
  });
});

describe("sortGroups", () => {
  it("orders groups and their members by name", () => {
    const out = sortGroups([group("zeta", [[2, "bob"], [1, "amy"]]), group("alpha", [])]);
    expect(out.map((g) => g.name)).toEqual(["alpha", "zeta"]);
    expect(out[1]!.members.map((m) => m.username)).toEqual(["amy", "bob"]);
  });
});
