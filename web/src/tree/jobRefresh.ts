// Deciding which tree folders to refetch when compile jobs move on, so a
// badge follows its job and a finished summary shows up under wiki/ without
// a manual refresh. Pure: the hook in JobWatch.tsx feeds it the jobs list and
// the cached listings.

import type { Job } from "../api/agent";
import type { ResourceNode } from "../api/types";
import { isFolderURI, parentURI } from "../api/uri";
import { isActiveJob } from "./badges";

/** JobSnapshot remembers each seen job's state and stage, by id. */
export type JobSnapshot = Map<number, string>;

export interface RefreshPlan {
  /** folders whose listing should be refetched */
  folders: Set<string>;
  /** files whose preview content may have changed (new summary versions) */
  files: Set<string>;
  /** the snapshot to compare the next jobs list against */
  snapshot: JobSnapshot;
}

/** listed returns a folder's cached items, or undefined when it is not loaded. */
export type ListedItems = (folder: string) => readonly ResourceNode[] | undefined;

const signature = (j: { state: string; stage?: string | null }) => `${j.state}:${j.stage ?? ""}`;

/** anyActive reports whether a jobs list holds a queued or running job. */
export function anyActive(jobs: readonly Pick<Job, "state">[] | undefined): boolean {
  return !!jobs?.some((j) => isActiveJob(j.state));
}

/** artifactURIs lists what a finished job wrote: summary, overview, abstract, output folder, an import's folder. */
export function artifactURIs(job: Pick<Job, "output_uri" | "result">): string[] {
  const out: string[] = [];
  const r = job.result;
  if (r && typeof r === "object") {
    for (const k of ["summary_uri", "overview_uri", "abstract_uri", "folder_uri"] as const) {
      const v = (r as Record<string, unknown>)[k];
      if (typeof v === "string" && v) out.push(v);
    }
  }
  if (job.output_uri) out.push(job.output_uri);
  return out;
}

/**
 * planRefresh compares a jobs list (newest first) with the previous snapshot
 * and with the tree's cached listings. A job whose state or stage changed
 * since the last look, or whose file row shows an older state, refreshes the
 * file's folder; a succeeded one also refreshes the folders its artifacts
 * landed in and each cached ancestor that does not list the next folder down
 * yet (a first compile creates wiki/ and wiki/<folder>/). prev null is the
 * first look: only the listings are compared.
 */
export function planRefresh(jobs: readonly Job[], prev: JobSnapshot | null, listed: ListedItems): RefreshPlan {
  const folders = new Set<string>();
  const files = new Set<string>();
  const snapshot: JobSnapshot = new Map();
  const byFolder = new Map<string, Map<string, ResourceNode> | null>();
  const itemOf = (uri: string, folder: string): ResourceNode | undefined => {
    let m = byFolder.get(folder);
    if (m === undefined) {
      const items = listed(folder);
      m = items ? new Map(items.map((n) => [n.uri, n])) : null;
      byFolder.set(folder, m);
    }
    return m?.get(uri);
  };
  const latestSeen = new Set<string>();

  for (const j of jobs) {
    snapshot.set(j.id, signature(j));
    const folder = parentURI(j.uri);
    if (folder === null) continue;
    const changed = prev !== null && prev.get(j.id) !== signature(j);
    let behind = false;
    if (!latestSeen.has(j.uri)) {
      // Only the newest job of a file is its badge.
      latestSeen.add(j.uri);
      const item = itemOf(j.uri, folder);
      const shown = item?.job;
      if (item && (!shown || shown.id < j.id || (shown.id === j.id && signature(shown) !== signature(j)))) {
        behind = true;
      }
    }
    if (!changed && !behind) continue;
    folders.add(folder);
    if (j.state !== "succeeded") continue;
    // A new overview changes the folder's row (its abstract) in the
    // listing above it: the source folder's and the output folder's.
    const overview = (j.result as Record<string, unknown> | null | undefined)?.["overview_uri"];
    if (typeof overview === "string" && overview) {
      for (const up of [parentURI(folder), parentURI(parentURI(overview) ?? "")]) if (up) folders.add(up);
    }
    for (const a of artifactURIs(j)) {
      if (!isFolderURI(a)) files.add(a);
      const dir = isFolderURI(a) ? a : parentURI(a);
      if (dir === null) continue;
      folders.add(dir);
      let child = dir;
      for (let p = parentURI(child); p !== null; child = p, p = parentURI(p)) {
        const items = listed(p);
        if (items && !items.some((n) => n.uri === child)) folders.add(p);
      }
    }
  }
  return { folders, files, snapshot };
}
