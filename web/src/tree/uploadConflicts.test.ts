import { describe, expect, it } from "vitest";
import { ApiError } from "../api/client";
import type { OnConflict } from "../api/resources";
import { existingOf, sendResolving } from "./uploadConflicts";
import type { ConflictAnswer, ConflictQuestion, ConflictSession } from "./uploadConflicts";

const f = (name: string) => new File(["x"], name);

// The server names the taken file (error.file) beside the node that holds
// its name; a server of the previous release spelled the code "exists".
function existsError(name: string, code = "already_exists"): ApiError {
  return new ApiError(409, code, `kb://me/${name} already exists`, {
    existing: { uri: `kb://me/${name}`, name, kind: "file", size: 1, updated_at: "", generated: false },
    file: name,
  });
}

// A folder on a fake server: names it holds refuse mode "fail", all or nothing.
function folder(taken: string[], code?: string) {
  const names = new Set(taken);
  const calls: string[] = [];
  const send = async (files: File[], mode: OnConflict) => {
    calls.push(`${mode}:${files.map((x) => x.name).join(",")}`);
    if (mode === "fail") {
      const hit = files.find((x) => names.has(x.name));
      if (hit) throw existsError(hit.name, code);
    }
    for (const x of files) names.add(x.name);
  };
  return { send, calls };
}

function asker(answers: ConflictAnswer[]) {
  const asked: ConflictQuestion[] = [];
  const ask = async (q: ConflictQuestion) => {
    asked.push(q);
    const a = answers.shift();
    if (!a) throw new Error(`unexpected question about ${q.name}`);
    return a;
  };
  return { ask, asked };
}

describe.each(["already_exists", "exists"])("sendResolving (409 %s)", (code) => {
  it("sends once and asks nothing when no name is taken", async () => {
    const srv = folder([], code);
    const q = asker([]);
    await sendResolving([f("a"), f("b")], srv.send, q.ask, { skipped: [], failed: [] });
    expect(srv.calls).toEqual(["fail:a,b"]);
  });

  it.each([
    { choice: "replace" as const, want: ["fail:a,b", "replace:b", "fail:a"] },
    { choice: "rename" as const, want: ["fail:a,b", "rename:b", "fail:a"] },
  ])("sends a taken file alone with $choice and the rest again", async ({ choice, want }) => {
    const srv = folder(["b"], code);
    const q = asker([{ choice, applyToAll: false }]);
    const session: ConflictSession = { skipped: [], failed: [] };
    await sendResolving([f("a"), f("b")], srv.send, q.ask, session);
    expect(srv.calls).toEqual(want);
    expect(q.asked.map((x) => [x.name, x.existing.uri, x.more])).toEqual([["b", "kb://me/b", true]]);
    expect(session.skipped).toEqual([]);
  });

  it("skips a cancelled file and still uploads the others", async () => {
    const srv = folder(["a"], code);
    const q = asker([{ choice: "cancel", applyToAll: false }]);
    const session: ConflictSession = { skipped: [], failed: [] };
    await sendResolving([f("a"), f("b")], srv.send, q.ask, session);
    expect(srv.calls).toEqual(["fail:a,b", "fail:b"]);
    expect(session.skipped).toEqual(["a"]);
  });

  it("asks once with apply to all and sends the rest in the chosen mode", async () => {
    const srv = folder(["a", "b", "c"], code);
    const q = asker([{ choice: "replace", applyToAll: true }]);
    const session: ConflictSession = { skipped: [], failed: [] };
    await sendResolving([f("a"), f("b"), f("c")], srv.send, q.ask, session);
    expect(q.asked).toHaveLength(1);
    expect(srv.calls).toEqual(["fail:a,b,c", "replace:a,b,c"]);
    // A later batch of the same upload goes straight in that mode.
    await sendResolving([f("d")], srv.send, q.ask, session);
    expect(srv.calls.at(-1)).toBe("replace:d");
  });

  it("cancel for all skips every taken name without asking again", async () => {
    const srv = folder(["a", "c"], code);
    const q = asker([{ choice: "cancel", applyToAll: true }]);
    const session: ConflictSession = { skipped: [], failed: [] };
    await sendResolving([f("a"), f("b"), f("c")], srv.send, q.ask, session);
    expect(q.asked).toHaveLength(1);
    expect(session.skipped).toEqual(["a", "c"]);
    expect(srv.calls).toEqual(["fail:a,b,c", "fail:b,c", "fail:b"]);
  });

  it("says nothing else follows for the last file, unless a later batch does", async () => {
    const q = asker([
      { choice: "replace", applyToAll: false },
      { choice: "replace", applyToAll: false },
    ]);
    await sendResolving([f("a")], folder(["a"], code).send, q.ask, { skipped: [], failed: [] });
    await sendResolving([f("a")], folder(["a"], code).send, q.ask, { skipped: [], failed: [] }, true);
    expect(q.asked.map((x) => x.more)).toEqual([false, true]);
  });

  it("matches the server's NFC name to a decomposed browser name", async () => {
    const decomposed = "e\u0301.txt";
    const q = asker([{ choice: "replace", applyToAll: false }]);
    const calls: string[] = [];
    const send = async (files: File[], mode: OnConflict) => {
      calls.push(`${mode}:${files.length}`);
      if (mode === "fail") throw existsError("\u00e9.txt", code);
    };
    await sendResolving([f(decomposed)], send, q.ask, { skipped: [], failed: [] });
    expect(calls).toEqual(["fail:1", "replace:1"]);
  });

  it("passes other errors through", async () => {
    const q = asker([]);
    const boom = new ApiError(413, "too_large", "too large");
    await expect(
      sendResolving([f("a")], async () => { throw boom; }, q.ask, { skipped: [], failed: [] }),
    ).rejects.toBe(boom);
    // A conflict about a file not in the request is not ours to resolve.
    await expect(
      sendResolving([f("a")], async () => { throw existsError("zzz", code); }, q.ask, { skipped: [], failed: [] }),
    ).rejects.toMatchObject({ code });
    expect(q.asked).toHaveLength(0);
  });
});

describe("existingOf", () => {
  it("reads the node of a 409 already_exists (or exists) and nothing else", () => {
    expect(existingOf(existsError("a"))?.uri).toBe("kb://me/a");
    expect(existingOf(existsError("a", "exists"))?.uri).toBe("kb://me/a");
    expect(existingOf(new ApiError(409, "already_exists", "a folder"))).toBeNull();
    expect(existingOf(new ApiError(409, "exists", "no node"))).toBeNull();
    expect(existingOf(new Error("x"))).toBeNull();
  });
});

// A file picked with its folder: the browser sets webkitRelativePath.
function inFolder(path: string): File {
  const file = new File(["x"], path.slice(path.lastIndexOf("/") + 1));
  Object.defineProperty(file, "webkitRelativePath", { value: path });
  return file;
}

describe("sendResolving in a folder upload", () => {
  it("sets aside a file the server refuses for itself, with its reason, and sends the rest", async () => {
    const stored: string[] = [];
    const calls: number[] = [];
    const send = async (files: File[]) => {
      calls.push(files.length);
      const bad = files.find((x) => x.webkitRelativePath.includes("\u202e"));
      if (bad) {
        throw new ApiError(400, "invalid_name", "names may not contain direction-changing characters", { file: bad.webkitRelativePath });
      }
      stored.push(...files.map((x) => x.webkitRelativePath));
    };
    const session: ConflictSession = { skipped: [], failed: [] };
    await sendResolving([inFolder("论文/a.md"), inFolder("论文/bad\u202ename.md"), inFolder("论文/子/b.md")], send, asker([]).ask, session);
    expect(stored).toEqual(["论文/a.md", "论文/子/b.md"]);
    expect(calls).toEqual([3, 2]);
    expect(session.failed).toEqual([{ path: "论文/bad\u202ename.md", message: "names may not contain direction-changing characters" }]);
  });

  it("does not set aside a file for a request-wide error", async () => {
    const boom = new ApiError(400, "invalid_name", "the target's name", {});
    const session: ConflictSession = { skipped: [], failed: [] };
    await expect(sendResolving([inFolder("a/x.md")], async () => { throw boom; }, asker([]).ask, session)).rejects.toBe(boom);
    expect(session.failed).toEqual([]);
  });

  it("asks about the file whose path the taken node ends, not another of the same name", async () => {
    const q = asker([{ choice: "cancel", applyToAll: false }]);
    const sent: string[] = [];
    const send = async (files: File[], mode: OnConflict) => {
      if (mode === "fail" && files.some((x) => x.webkitRelativePath === "lib/b/top.md")) {
        throw new ApiError(409, "exists", "taken", {
          existing: { uri: "kb://users/bob/up/lib/b/top.md", name: "top.md", kind: "file", size: 1, updated_at: "", generated: false },
        });
      }
      sent.push(...files.map((x) => x.webkitRelativePath));
    };
    const session: ConflictSession = { skipped: [], failed: [] };
    await sendResolving([inFolder("lib/a/top.md"), inFolder("lib/b/top.md")], send, q.ask, session);
    expect(q.asked.map((x) => x.name)).toEqual(["lib/b/top.md"]);
    expect(session.skipped).toEqual(["lib/b/top.md"]);
    expect(sent).toEqual(["lib/a/top.md"]);
  });
});
