import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { onUnauthorized } from "./client";
import { clearSession, saveSession } from "./token";
import { deleteResource, listAtLeast, readContent, renameResource, uploadFiles } from "./resources";
import type { Listing, ResourceNode } from "./types";

const folder = "kb://users/admin/big/";
const node = (i: number): ResourceNode => ({
  uri: `${folder}f${i}.md`,
  name: `f${i}.md`,
  kind: "file",
  size: i,
  updated_at: "2026-01-01T00:00:00Z",
  generated: false,
});

/**
 * A fake folder of n children served in pages by cursor (the name of the last
 * child seen, as the server's opaque cursor does), recording requested cursors.
 */
function pagedFolder(n: number) {
  const cursors: (string | null)[] = [];
  const fetchMock = vi.fn<typeof fetch>(async (input) => {
    const u = new URL(String(input), "http://x");
    const cursor = u.searchParams.get("cursor");
    const limit = Number(u.searchParams.get("limit"));
    expect(u.searchParams.has("offset")).toBe(false);
    cursors.push(cursor);
    const from = cursor === null ? 0 : Number(cursor.slice(1)) + 1;
    const items = Array.from({ length: Math.max(0, Math.min(limit, n - from)) }, (_, k) => node(from + k));
    const next = from + items.length < n ? `c${from + items.length - 1}` : null;
    const body: Listing = { uri: folder, items, next_cursor: next };
    return new Response(JSON.stringify(body), { status: 200 });
  });
  return { fetchMock, cursors };
}

describe("listAtLeast", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("loads one page for a fresh folder", async () => {
    const { fetchMock, cursors } = pagedFolder(25);
    vi.stubGlobal("fetch", fetchMock);
    const l = await listAtLeast(folder, 0, undefined, 10);
    expect(l.items.map((n) => n.name).slice(0, 2)).toEqual(["f0.md", "f1.md"]);
    expect(l.items).toHaveLength(10);
    expect(l.next_cursor).toBe("c9");
    expect(cursors).toEqual([null]);
  });

  it("reloads as many pages as were loaded before", async () => {
    const { fetchMock, cursors } = pagedFolder(25);
    vi.stubGlobal("fetch", fetchMock);
    const l = await listAtLeast(folder, 20, undefined, 10);
    expect(l.items.map((n) => n.name)).toEqual(Array.from({ length: 20 }, (_, i) => `f${i}.md`));
    expect(l.next_cursor).toBe("c19");
    expect(cursors).toEqual([null, "c9"]);
  });

  it("stops at the end of the folder", async () => {
    const { fetchMock, cursors } = pagedFolder(25);
    vi.stubGlobal("fetch", fetchMock);
    const l = await listAtLeast(folder, 1000, undefined, 10);
    expect(l.items).toHaveLength(25);
    expect(l.next_cursor).toBeNull();
    expect(cursors).toEqual([null, "c9", "c19"]);
  });

  it("stops when the server repeats a cursor", async () => {
    const fetchMock = vi.fn<typeof fetch>(
      async () => new Response(JSON.stringify({ uri: folder, items: [node(0)], next_cursor: "same" }), { status: 200 }),
    );
    vi.stubGlobal("fetch", fetchMock);
    const l = await listAtLeast(folder, 50, undefined, 10);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(l.items).toHaveLength(2);
    expect(l.next_cursor).toBeNull();
  });

  it("treats a missing next_cursor as the end", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn<typeof fetch>(async () => new Response(JSON.stringify({ uri: folder, items: [node(0)] }), { status: 200 })),
    );
    const l = await listAtLeast(folder, 0);
    expect(l.next_cursor).toBeNull();
  });
});

describe("resource calls", () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => vi.stubGlobal("fetch", fetchMock));
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });

  it("renames with uri and new_uri", async () => {
    fetchMock.mockResolvedValue(new Response(JSON.stringify(node(1)), { status: 200 }));
    await renameResource("kb://users/admin/a.md", "kb://users/admin/b.md");
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe("/api/v1/resources");
    expect(init?.method).toBe("PATCH");
    expect(JSON.parse(String(init?.body))).toEqual({ uri: "kb://users/admin/a.md", new_uri: "kb://users/admin/b.md" });
  });

  it("deletes with the uri in the query", async () => {
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));
    await deleteResource("kb://users/admin/a b.md");
    expect(fetchMock.mock.calls[0]![0]).toBe("/api/v1/resources?uri=kb%3A%2F%2Fusers%2Fadmin%2Fa+b.md");
    expect(fetchMock.mock.calls[0]![1]?.method).toBe("DELETE");
  });

  it("reads a content page by code-point offset", async () => {
    fetchMock.mockResolvedValue(
      new Response(JSON.stringify({ uri: "u", offset: 6000, limit: 6000, next_offset: null, total: 6001, body: "l2", text: "x" })),
    );
    const p = await readContent("kb://users/admin/a.md", 6000);
    expect(p.total).toBe(6001);
    expect(String(fetchMock.mock.calls[0]![0])).toContain("offset=6000&limit=6000");
  });
});

/** A minimal XMLHttpRequest stand-in driven by the test. */
class FakeXHR {
  static last: FakeXHR | null = null;
  method = "";
  url = "";
  headers: Record<string, string> = {};
  body: FormData | null = null;
  status = 0;
  statusText = "";
  responseText = "";
  upload: { onprogress: ((e: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  constructor() {
    FakeXHR.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(k: string, v: string) {
    this.headers[k] = v;
  }
  send(body: FormData) {
    this.body = body;
  }
  abort() {
    this.onabort?.();
  }
  respond(status: number, text: string) {
    this.status = status;
    this.responseText = text;
    this.onload?.();
  }
}

describe("uploadFiles", () => {
  beforeEach(() => {
    vi.stubGlobal("XMLHttpRequest", FakeXHR);
    saveSession({ token: "tok", user: { id: 1, username: "admin", role: "admin" }, expiresAt: "2999-01-01T00:00:00Z" });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    clearSession();
    onUnauthorized(null);
  });

  it("posts every file in the field 'file' with the token and reports progress", async () => {
    const progress: number[] = [];
    const files = [new File(["hello"], "a.txt"), new File(["世界"], "会议.md")];
    const h = uploadFiles("kb://users/admin/notes/", files, (p) => progress.push(p.loaded / p.total));
    const xhr = FakeXHR.last!;
    expect(xhr.method).toBe("POST");
    expect(xhr.url).toBe("/api/v1/resources/upload?uri=kb%3A%2F%2Fusers%2Fadmin%2Fnotes%2F&on_conflict=fail");
    expect(xhr.headers).toEqual({ Authorization: "Bearer tok" });
    const sent = xhr.body!.getAll("file") as File[];
    expect(sent.map((f) => f.name)).toEqual(["a.txt", "会议.md"]);
    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 5, total: 10 } as ProgressEvent);
    xhr.upload.onprogress?.({ lengthComputable: false, loaded: 7, total: 0 } as ProgressEvent);
    xhr.respond(200, JSON.stringify({ items: [node(1)] }));
    await expect(h.promise).resolves.toEqual({ items: [node(1)] });
    expect(progress).toEqual([0.5]);
  });

  it("names parts by their path below the folder and then asks for the folders (parents=true)", async () => {
    const files = [new File(["a"], "a.md"), new File(["b"], "b.md")];
    const paths = new Map([[files[0], "论文/a.md"], [files[1], "b.md"]]);
    uploadFiles("kb://me/", files, undefined, "fail", (f) => paths.get(f) ?? f.name);
    const xhr = FakeXHR.last!;
    expect(xhr.url).toBe("/api/v1/resources/upload?uri=kb%3A%2F%2Fme%2F&on_conflict=fail&parents=true");
    expect((xhr.body!.getAll("file") as File[]).map((f) => f.name)).toEqual(["论文/a.md", "b.md"]);
  });

  it("sends the chosen on_conflict and rejects a conflict with the existing node", async () => {
    const h = uploadFiles("kb://me/", [new File(["x"], "a.txt")], undefined, "replace");
    expect(FakeXHR.last!.url).toBe("/api/v1/resources/upload?uri=kb%3A%2F%2Fme%2F&on_conflict=replace");
    FakeXHR.last!.respond(201, JSON.stringify({ items: [node(1)] }));
    await h.promise;
    const c = uploadFiles("kb://me/", [new File(["x"], "a.txt")]);
    FakeXHR.last!.respond(409, JSON.stringify({ error: { code: "exists", message: "taken", existing: node(2) } }));
    await expect(c.promise).rejects.toMatchObject({ status: 409, code: "exists", details: { existing: node(2) } });
  });

  it("rejects with the server's message and reports 401", async () => {
    let told = 0;
    onUnauthorized(() => told++);
    const h = uploadFiles("kb://users/admin/", [new File(["x"], "x")]);
    FakeXHR.last!.respond(401, JSON.stringify({ error: { code: "unauthorized", message: "expired" } }));
    await expect(h.promise).rejects.toMatchObject({ status: 401, message: "expired" });
    expect(told).toBe(1);
  });

  it("rejects on 413 with the server's message", async () => {
    const h = uploadFiles("kb://users/admin/", [new File(["x"], "x")]);
    FakeXHR.last!.respond(413, JSON.stringify({ error: { code: "too_large", message: "file too large" } }));
    await expect(h.promise).rejects.toMatchObject({ status: 413, message: "file too large" });
  });

  it("rejects on network error and abort", async () => {
    const h1 = uploadFiles("kb://users/admin/", [new File(["x"], "x")]);
    FakeXHR.last!.onerror?.();
    await expect(h1.promise).rejects.toMatchObject({ code: "network_error" });
    const h2 = uploadFiles("kb://users/admin/", [new File(["x"], "x")]);
    h2.abort();
    await expect(h2.promise).rejects.toMatchObject({ code: "aborted" });
  });
});
