import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError, apiURL, errorFromBody, onUnauthorized, request, requestJSON } from "./client";
import { clearSession, saveSession } from "./token";

function jsonResponse(status: number, body: unknown, statusText = ""): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    statusText,
    headers: { "Content-Type": "application/json" },
  });
}

describe("apiURL", () => {
  it("joins path and query, skipping empty values and encoding", () => {
    expect(apiURL("/resources")).toBe("/api/v1/resources");
    expect(apiURL("/resources", { uri: "kb://users/a/会 议.md", offset: 0, limit: 20, x: undefined, y: null })).toBe(
      "/api/v1/resources?uri=kb%3A%2F%2Fusers%2Fa%2F%E4%BC%9A+%E8%AE%AE.md&offset=0&limit=20",
    );
  });
});

describe("errorFromBody", () => {
  it("uses the server's error shape", () => {
    const e = errorFromBody(404, "Not Found", '{"error":{"code":"resource_not_found","message":"no such file"}}');
    expect(e).toBeInstanceOf(ApiError);
    expect(e.status).toBe(404);
    expect(e.code).toBe("resource_not_found");
    expect(e.message).toBe("no such file");
  });
  it("keeps the error's other fields as details", () => {
    const e = errorFromBody(409, "Conflict", '{"error":{"code":"exists","message":"taken","existing":{"uri":"kb://me/a"}}}');
    expect(e.code).toBe("exists");
    expect(e.details).toEqual({ existing: { uri: "kb://me/a" } });
  });
  it("falls back for non-JSON bodies", () => {
    const e = errorFromBody(502, "Bad Gateway", "<html>nginx</html>");
    expect(e.code).toBe("http_502");
    expect(e.message).toBe("Bad Gateway (HTTP 502)");
  });
  it("falls back for JSON without a message", () => {
    expect(errorFromBody(500, "", '{"error":{"code":"x"}}').message).toBe("request failed (HTTP 500)");
    expect(errorFromBody(500, "", "null").message).toBe("request failed (HTTP 500)");
  });
});

describe("request", () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    vi.stubGlobal("fetch", fetchMock);
    saveSession({ token: "tok-1", user: { id: 1, username: "admin", role: "admin" }, expiresAt: "2999-01-01T00:00:00Z" });
  });
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
    onUnauthorized(null);
    clearSession();
  });

  it("sends the bearer token and JSON body", async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { ok: true }));
    const out = await requestJSON<{ ok: boolean }>("/resources/folders", { method: "POST", json: { uri: "kb://x/" } });
    expect(out).toEqual({ ok: true });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe("/api/v1/resources/folders");
    expect(init?.method).toBe("POST");
    expect(init?.headers).toEqual({ Authorization: "Bearer tok-1", "Content-Type": "application/json" });
    expect(init?.body).toBe('{"uri":"kb://x/"}');
  });

  it("returns undefined for 204", async () => {
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));
    await expect(requestJSON("/resources", { method: "DELETE" })).resolves.toBeUndefined();
  });

  it("throws the server's message and reports 401", async () => {
    const seen: ApiError[] = [];
    onUnauthorized((e) => seen.push(e));
    fetchMock.mockResolvedValue(jsonResponse(401, { error: { code: "unauthorized", message: "token expired" } }));
    await expect(request("/resources")).rejects.toMatchObject({ status: 401, message: "token expired" });
    expect(seen).toHaveLength(1);
  });

  it("does not report 401 for anonymous calls (a wrong password)", async () => {
    const seen: ApiError[] = [];
    onUnauthorized((e) => seen.push(e));
    fetchMock.mockResolvedValue(jsonResponse(401, { error: { code: "bad_credentials", message: "wrong username or password" } }));
    await expect(request("/auth/login", { method: "POST", json: {}, anonymous: true })).rejects.toMatchObject({
      message: "wrong username or password",
    });
    expect(seen).toHaveLength(0);
    expect(fetchMock.mock.calls[0]![1]?.headers).toEqual({ "Content-Type": "application/json" });
  });

  it("does not report other errors as 401", async () => {
    const seen: ApiError[] = [];
    onUnauthorized((e) => seen.push(e));
    fetchMock.mockResolvedValue(jsonResponse(403, { error: { code: "forbidden", message: "no" } }));
    await expect(request("/admin/users")).rejects.toMatchObject({ status: 403 });
    expect(seen).toHaveLength(0);
  });

  it("turns network failures into a readable ApiError", async () => {
    fetchMock.mockRejectedValue(new TypeError("Failed to fetch"));
    await expect(request("/resources")).rejects.toMatchObject({ status: 0, code: "network_error" });
  });

  it("lets aborts through unchanged", async () => {
    fetchMock.mockRejectedValue(new DOMException("aborted", "AbortError"));
    await expect(request("/resources")).rejects.toMatchObject({ name: "AbortError" });
  });
});
