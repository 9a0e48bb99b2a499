import type { Job } from "../../api/agent";

/** JobTime is the moment a job row shows: when it ended, else started, else was queued. */
export interface JobTime {
  key: "tasks.finishedAt" | "tasks.startedAt" | "tasks.queuedAt";
  iso: string;
}

export function jobTime(j: Pick<Job, "created_at" | "started_at" | "finished_at">): JobTime {
  if (j.finished_at) return { key: "tasks.finishedAt", iso: j.finished_at };
  if (j.started_at) return { key: "tasks.startedAt", iso: j.started_at };
  return { key: "tasks.queuedAt", iso: j.created_at };
}
