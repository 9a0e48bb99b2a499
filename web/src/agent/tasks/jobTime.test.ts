import { describe, expect, it } from "vitest";
import { jobTime } from "./jobTime";

describe("jobTime", () => {
  it("shows when a job ended, else started, else was queued", () => {
    const queued = { created_at: "2026-12-06T03:00:00Z" };
    expect(jobTime(queued)).toEqual({ key: "tasks.queuedAt", iso: queued.created_at });
    const running = { ...queued, started_at: "2026-12-06T03:01:00Z" };
    expect(jobTime(running)).toEqual({ key: "tasks.startedAt", iso: running.started_at });
    expect(jobTime({ ...running, finished_at: "2026-12-06T03:02:00Z" })).toEqual({ key: "tasks.finishedAt", iso: "2026-12-06T03:02:00Z" });
  });
});
