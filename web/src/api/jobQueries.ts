// The caller's jobs list, shared by the tree's watcher and the task center,
// and the writes that change a job.

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { QueryClient } from "@tanstack/react-query";
import { cancelJob, listJobs, retryJob } from "./agent";
import type { Job, JobList } from "./agent";
import { queryKeys } from "./queryKeys";

/** how often the jobs list is polled while a job is active */
export const ACTIVE_POLL_MS = 1000;

/**
 * useJobs reads the jobs list, refetched every poll(list) ms (false: not
 * polled). With onlyWhilePolled a list that is not polled is not fetched
 * either, so a page with nothing active asks nothing.
 */
export function useJobs(poll: (list: JobList | undefined) => number | false, { onlyWhilePolled = false } = {}) {
  return useQuery({
    queryKey: queryKeys.jobs(),
    queryFn: ({ signal }) => listJobs({}, signal),
    enabled: onlyWhilePolled ? (q) => poll(q.state.data) !== false : true,
    refetchInterval: (q) => poll(q.state.data),
  });
}

/**
 * noteSubmittedJobs puts freshly created jobs into the cached jobs list so the
 * watcher starts polling at once, and refetches their folders for the
 * "queued" badge.
 */
export function noteSubmittedJobs(qc: QueryClient, jobs: readonly Job[]): void {
  if (jobs.length === 0) return;
  const ids = new Set(jobs.map((j) => j.id));
  qc.setQueryData<JobList>(queryKeys.jobs(), (old) => ({
    items: [...jobs, ...(old?.items ?? []).filter((j) => !ids.has(j.id))],
  }));
  void qc.invalidateQueries({ queryKey: queryKeys.jobs() });
}

/** useJobCommand cancels or retries one of the caller's jobs. */
export function useJobCommand() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, command }: { id: number; command: "cancel" | "retry" }) => (command === "cancel" ? cancelJob(id) : retryJob(id)),
    // The job as the server answered shows at once (a retried one is queued
    // again), and the watcher polls while it runs.
    onSuccess: (job) => noteSubmittedJobs(qc, [job]),
    onError: () => void qc.invalidateQueries({ queryKey: queryKeys.jobs() }),
  });
}
