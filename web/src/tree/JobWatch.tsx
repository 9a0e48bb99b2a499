// Keeps the tree in step with compile jobs: while any job is active (seen by
// the task center, the compile dialog, or a badge in a loaded folder) the
// jobs list is polled, and each change refetches just the folders it touches.
// Nothing is polled when nothing is active.

import { useEffect, useRef } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { QueryClient } from "@tanstack/react-query";
import { listJobs } from "../api/agent";
import type { Job, JobList } from "../api/agent";
import type { Listing } from "../api/types";
import { anyActive, planRefresh } from "./jobRefresh";
import type { JobSnapshot } from "./jobRefresh";
import { listingKey, refreshFolders } from "./useFolderListings";

/** JOBS_KEY is the react-query key of the jobs list, shared with the task center. */
export const JOBS_KEY = ["jobs"] as const;
/** how often the jobs list is polled while a job is active */
export const ACTIVE_POLL_MS = 1000;
/** how often while only a (possibly outdated) tree badge says a job is active */
const BADGE_POLL_MS = 5000;

export const fetchJobs = ({ signal }: { signal: AbortSignal }) => listJobs({}, signal);

/**
 * noteSubmittedJobs puts freshly created jobs into the cached jobs list so the
 * watcher starts polling at once, and refetches their folders for the
 * "queued" badge.
 */
export function noteSubmittedJobs(qc: QueryClient, jobs: readonly Job[]): void {
  if (jobs.length === 0) return;
  const ids = new Set(jobs.map((j) => j.id));
  qc.setQueryData<JobList>(JOBS_KEY, (old) => ({
    items: [...jobs, ...(old?.items ?? []).filter((j) => !ids.has(j.id))],
  }));
  void qc.invalidateQueries({ queryKey: JOBS_KEY });
}

export function JobWatch({ treeActive }: { treeActive: boolean }) {
  const qc = useQueryClient();
  const interval = (data: JobList | undefined) =>
    anyActive(data?.items) ? ACTIVE_POLL_MS : treeActive ? BADGE_POLL_MS : false;
  const jobs = useQuery({
    queryKey: JOBS_KEY,
    queryFn: fetchJobs,
    enabled: (q) => interval(q.state.data) !== false,
    refetchInterval: (q) => interval(q.state.data),
  });
  const prev = useRef<JobSnapshot | null>(null);
  useEffect(() => {
    const list = jobs.data?.items;
    if (!list) return;
    const plan = planRefresh(list, prev.current, (f) => qc.getQueryData<Listing>(listingKey(f))?.items);
    prev.current = plan.snapshot;
    // A folder already being refetched will show the change; restarting it
    // every poll would starve a large folder.
    const folders = [...plan.folders].filter((f) => qc.isFetching({ queryKey: listingKey(f), exact: true }) === 0);
    if (folders.length) void refreshFolders(qc, folders);
    for (const f of plan.files) void qc.invalidateQueries({ queryKey: ["content", f] });
  }, [jobs.data, qc]);
  return null;
}
