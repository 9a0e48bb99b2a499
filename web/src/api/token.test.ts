import { afterEach, describe, expect, it } from "vitest";
import { clearSession, loadSession, readToken, saveSession } from "./token";

const user = { id: 7, username: "alice", role: "user" };

describe("session storage", () => {
  afterEach(() => clearSession());

  it("round-trips a session", () => {
    saveSession({ token: "t", user, expiresAt: "2999-01-01T00:00:00Z" });
    expect(readToken()).toBe("t");
    expect(loadSession()).toEqual({ token: "t", user, expiresAt: "2999-01-01T00:00:00Z" });
  });

  it("drops an expired session", () => {
    saveSession({ token: "t", user, expiresAt: "2020-01-01T00:00:00Z" });
    expect(loadSession(new Date("2021-01-01T00:00:00Z"))).toBeNull();
    expect(readToken()).toBeNull();
  });

  it("keeps a session with an unparsable expiry (the server decides)", () => {
    saveSession({ token: "t", user, expiresAt: "" });
    expect(loadSession()?.token).toBe("t");
  });

  it("drops corrupt user data", () => {
    saveSession({ token: "t", user, expiresAt: "2999-01-01T00:00:00Z" });
    localStorage.setItem("knowspace.user", "{nope");
    expect(loadSession()).toBeNull();
    expect(readToken()).toBeNull();
  });

  it("is empty after clear", () => {
    saveSession({ token: "t", user, expiresAt: "2999-01-01T00:00:00Z" });
    clearSession();
    expect(loadSession()).toBeNull();
  });
});
