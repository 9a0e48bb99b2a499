import { describe, expect, it } from "vitest";
import type { Job } from "../api/agent";
import type { JobState, ResourceNode } from "../api/types";
import { anyActive, artifactURIs, planRefresh } from "./jobRefresh";

const root = "kb://users/admin/";
const src = root + "notes/plan.md";
const summaryURI = root + "wiki/notes/plan.md";

function job(id: number, state: JobState, extra: Partial<Job> = {}): Job {
  return {
    id, kind: "wiki_compile", uri: src, state, stage: "", progress: 0, attempts: 1, max_attempts: 3, error: null,
    configuration: {}, created_at: "", updated_at: "", ...extra,
  };
}
const succeeded = (id: number) =>
  job(id, "succeeded", { output_uri: root + "wiki/notes/", result: { summary_uri: summaryURI, overview_uri: root + "wiki/notes/.overview.md" } });
const fileNode = (uri: string, extra: Partial<ResourceNode> = {}): ResourceNode => ({
  uri, name: uri.split("/").at(-1)!, kind: "file", size: 1, updated_at: "", generated: false, ...extra,
});
const dirNode = (uri: string): ResourceNode => ({ uri, name: uri.split("/").at(-2)!, kind: "dir", size: 0, updated_at: "", generated: false });

function listings(map: Record<string, ResourceNode[]>) {
  return (folder: string) => map[folder];
}

describe("planRefresh", () => {
  it("first look with the tree in step refreshes nothing", () => {
    const tree = listings({ [root + "notes/"]: [fileNode(src, { job: { id: 1, state: "queued" } })] });
    const plan = planRefresh([job(1, "queued")], null, tree);
    expect([...plan.folders]).toEqual([]);
    expect(plan.snapshot.get(1)).toBe("queued:");
  });

  it("a row showing an older job, or none, refreshes its folder", () => {
    const tree = listings({ [root + "notes/"]: [fileNode(src)] });
    expect([...planRefresh([job(1, "queued")], null, tree).folders]).toEqual([root + "notes/"]);
    const older = listings({ [root + "notes/"]: [fileNode(src, { job: { id: 1, state: "failed" } })] });
    expect([...planRefresh([job(2, "queued"), job(1, "failed")], null, older).folders]).toEqual([root + "notes/"]);
  });

  it("a stage change refreshes the file's folder only", () => {
    const tree = listings({ [root + "notes/"]: [fileNode(src, { job: { id: 1, state: "running", stage: "parse" } })] });
    const first = planRefresh([job(1, "running", { stage: "parse" })], null, tree);
    expect(first.folders.size).toBe(0);
    const next = planRefresh([job(1, "running", { stage: "summarize" })], first.snapshot, tree);
    expect([...next.folders]).toEqual([root + "notes/"]);
  });

  it("a finished job refreshes where its artifacts landed and the ancestors that lack them", () => {
    const tree = listings({
      [root]: [dirNode(root + "notes/")],
      [root + "notes/"]: [fileNode(src, { job: { id: 1, state: "running", stage: "overview" } })],
    });
    const prev = new Map([[1, "running:overview"]]);
    const plan = planRefresh([{ ...succeeded(1), stage: "overview" }], prev, tree);
    // root lacks wiki/; wiki/notes/ (the artifacts' folder) is always named, refetching an unloaded key is a no-op
    // wiki/ lists wiki/notes/, whose row carries the new abstract
    expect([...plan.folders].sort()).toEqual([root, root + "notes/", root + "wiki/", root + "wiki/notes/"].sort());
    expect([...plan.files].sort()).toEqual([summaryURI, root + "wiki/notes/.overview.md"].sort());
  });

  it("a new overview refreshes the listing that holds the source folder's row", () => {
    const deep = root + "a/b/plan.md";
    const tree = listings({
      [root + "a/"]: [dirNode(root + "a/b/")],
      [root + "a/b/"]: [fileNode(deep, { job: { id: 1, state: "running", stage: "overview" } })],
      [root + "wiki/a/"]: [dirNode(root + "wiki/a/b/")],
    });
    const prev = new Map([[1, "running:overview"]]);
    const done = job(1, "succeeded", { uri: deep, output_uri: root + "wiki/a/b/", result: { summary_uri: root + "wiki/a/b/plan.md", overview_uri: root + "wiki/a/b/.overview.md" } });
    const plan = planRefresh([done], prev, tree);
    expect(plan.folders.has(root + "a/")).toBe(true);
    expect(plan.folders.has(root + "wiki/a/")).toBe(true);
    // Deferred overview: another job of the folder writes it, and refreshes then.
    const deferred = { ...done, result: { summary_uri: root + "wiki/a/b/plan.md", overview_deferred: true } };
    const later = planRefresh([deferred], prev, tree);
    expect(later.folders.has(root + "a/")).toBe(false);
  });

  it("does not refresh an ancestor that already lists the next folder down", () => {
    const tree = listings({
      [root]: [dirNode(root + "notes/"), dirNode(root + "wiki/")],
      [root + "wiki/"]: [dirNode(root + "wiki/notes/")],
      [root + "notes/"]: [fileNode(src, { job: { id: 1, state: "succeeded" } })],
    });
    // Its overview deferred to another job: no folder row changes above.
    const summaryOnly = { ...succeeded(1), result: { summary_uri: summaryURI, overview_deferred: true } };
    const plan = planRefresh([summaryOnly], new Map([[1, "running:summarize"]]), tree);
    expect([...plan.folders].sort()).toEqual([root + "notes/", root + "wiki/notes/"].sort());
  });

  it("a job that finished before it was first seen still brings its summary in", () => {
    const tree = listings({ [root]: [dirNode(root + "notes/")], [root + "notes/"]: [fileNode(src, { job: { id: 1, state: "queued" } })] });
    const plan = planRefresh([succeeded(1)], null, tree);
    expect(plan.folders.has(root)).toBe(true);
    expect(plan.folders.has(root + "notes/")).toBe(true);
  });

  it("a new job after the first look counts as a change even when its folder is not loaded", () => {
    const plan = planRefresh([succeeded(2), succeeded(1)], new Map([[1, "succeeded:"]]), listings({}));
    expect(plan.folders.has(root + "wiki/notes/")).toBe(true);
    expect(plan.folders.has(root + "notes/")).toBe(true);
  });

  it("only the newest job of a file is compared with its row", () => {
    const tree = listings({ [root + "notes/"]: [fileNode(src, { job: { id: 2, state: "succeeded" }, summary: "fresh" })] });
    const plan = planRefresh([job(2, "succeeded"), job(1, "failed")], null, tree);
    expect(plan.folders.size).toBe(0);
  });

  it("anyActive and artifactURIs", () => {
    expect(anyActive([job(1, "succeeded"), job(2, "running")])).toBe(true);
    expect(anyActive([job(1, "failed")])).toBe(false);
    expect(anyActive(undefined)).toBe(false);
    expect(artifactURIs(job(1, "succeeded"))).toEqual([]);
    expect(artifactURIs(succeeded(1))).toEqual([summaryURI, root + "wiki/notes/.overview.md", root + "wiki/notes/"]);
  });

  it("refreshes the folder an import filled, which the tree may have listed empty", () => {
    const folder = root + "Project X/";
    const done = job(7, "succeeded", { kind: "import", uri: folder, result: { folder_uri: folder, files: 3, folders: 5 } });
    const plan = planRefresh([done], new Map([[7, "running:unpack"]]), (f) => (f === folder ? [] : undefined));
    expect([...plan.folders]).toContain(folder);
    expect([...plan.folders]).toContain(root);
  });
});
