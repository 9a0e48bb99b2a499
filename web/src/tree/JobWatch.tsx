// Keeps the tree in step with compile jobs: while any job is active (seen by
// the task center, the compile dialog, or a badge in a loaded folder) the
// jobs list is polled, and each change refetches just the folders it touches.
// Nothing is polled when nothing is active.

import { useEffect, useRef } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { ACTIVE_POLL_MS, useJobs } from "../api/jobQueries";
import type { JobList } from "../api/agent";
import { refreshFolders } from "../api/listingQueries";
import { queryKeys } from "../api/queryKeys";
import type { Listing } from "../api/types";
import { anyActive, planRefresh } from "./jobRefresh";
import type { JobSnapshot } from "./jobRefresh";

/** how often while only a (possibly outdated) tree badge says a job is active */
const BADGE_POLL_MS = 5000;

export function JobWatch({ treeActive }: { treeActive: boolean }) {
  const qc = useQueryClient();
  const jobs = useJobs((list: JobList | undefined) => (anyActive(list?.items) ? ACTIVE_POLL_MS : treeActive ? BADGE_POLL_MS : false), {
    onlyWhilePolled: true,
  });
  const prev = useRef<JobSnapshot | null>(null);
  useEffect(() => {
    const list = jobs.data?.items;
    if (!list) return;
    const plan = planRefresh(list, prev.current, (f) => qc.getQueryData<Listing>(queryKeys.listing(f))?.items);
    prev.current = plan.snapshot;
    // A folder already being refetched will show the change; restarting it
    // every poll would starve a large folder.
    const folders = [...plan.folders].filter((f) => qc.isFetching({ queryKey: queryKeys.listing(f), exact: true }) === 0);
    if (folders.length) void refreshFolders(qc, folders);
    for (const f of plan.files) void qc.invalidateQueries({ queryKey: queryKeys.content(f) });
  }, [jobs.data, qc]);
  return null;
}
