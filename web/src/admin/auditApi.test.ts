import { describe, expect, it } from "vitest";
import { auditQuery, noFilter } from "./auditApi";

describe("auditQuery", () => {
  it("sends nothing for an empty filter", () => {
    expect(auditQuery(noFilter)).toEqual({ user_id: undefined, action: undefined, since: undefined, until: undefined });
  });

  it("spans the picked days from the start of the first to the end of the last, in local time", () => {
    const q = auditQuery({ userID: 7, action: "signin", from: "2026-03-01", to: "2026-03-02" });
    expect(q.user_id).toBe(7);
    expect(q.action).toBe("signin");
    expect(q.since).toBe(new Date(2026, 2, 1).toISOString());
    expect(q.until).toBe(new Date(2026, 2, 3).toISOString());
  });

  it("ignores a day the date field did not finish", () => {
    expect(auditQuery({ ...noFilter, from: "2026-3" }).since).toBeUndefined();
  });
});
