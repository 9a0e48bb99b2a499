// The Share dialog's list: own shares (changeable) before inherited ones
// ("via <folder>"), and directory hits that can still be granted.

import { describe, expect, it } from "vitest";
import type { Share } from "../api/types";
import { accessRows, candidateLabel, candidates, granteeOfCandidate } from "./shareModel";

const root = "kb://users/alice/";
const node = `${root}papers/drafts/`;
let nextID = 1;
const share = (uri: string, who: { user?: string; group?: string }, role: "read" | "write" = "read"): Share => ({
  id: nextID++,
  uri,
  user: who.user ? { id: 100 + nextID, username: who.user } : undefined,
  group: who.group ? { id: 200 + nextID, name: who.group } : undefined,
  role,
  inherited: uri !== node,
  created_at: "2026-01-01T00:00:00Z",
});

describe("accessRows", () => {
  it("puts own shares first, groups before people, then inherited ones nearest first", () => {
    const rows = accessRows(
      [
        share(`${root}`, { user: "zed" }),
        share(`${root}papers/`, { group: "team" }, "write"),
        share(node, { user: "carol" }, "write"),
        share(node, { user: "bob" }),
        share(node, { group: "lab" }),
      ],
      root,
    );
    expect(rows.map((r) => [r.name, r.role, r.via])).toEqual([
      ["lab", "read", null],
      ["bob", "read", null],
      ["carol", "write", null],
      ["team", "write", "papers/"],
      ["zed", "read", "/"],
    ]);
    expect(rows[0]).toMatchObject({ kind: "group", uri: node });
  });

  it("leaves out a share that names nobody", () => {
    expect(accessRows([share(node, {})], root)).toEqual([]);
  });
});

describe("candidates", () => {
  const rows = accessRows([share(node, { user: "bob" }), share(`${root}papers/`, { group: "team" })], root);
  const dir = {
    users: [
      { id: 2, username: "bob" },
      { id: 3, username: "bea" },
    ],
    groups: [
      { id: 1, name: "team" },
      { id: 4, name: "bob" },
    ],
  };

  it("drops grantees shared this node directly and keeps inherited ones (a direct share can give more)", () => {
    expect(candidates(dir, rows)).toEqual([
      { kind: "group", id: 1, name: "team" },
      { kind: "group", id: 4, name: "bob" },
      { kind: "user", id: 3, name: "bea" },
    ]);
  });

  it("names people and groups apart in requests and labels", () => {
    expect(granteeOfCandidate({ kind: "user", id: 3, name: "bea" })).toEqual({ user: "bea" });
    expect(granteeOfCandidate({ kind: "group", id: 1, name: "team" })).toEqual({ group: "team" });
    expect(candidateLabel({ kind: "group", name: "team" })).toBe("team (group)");
    expect(candidateLabel({ kind: "user", name: "bea" })).toBe("bea");
  });
});
