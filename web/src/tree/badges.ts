// Which job / summary badge a file row of the tree shows (SPEC §7, §11:
// stale summaries are visible in the tree). One badge per row at most, so
// rows keep their height and stay calm; the title carries the detail.

import type { JobBadge, ResourceNode } from "../api/types";

export type FileBadgeKind = "queued" | "parsing" | "compiling" | "failed" | "cancelled" | "stale" | "fresh";

/** tone picks the colour: accent while working, danger, warning, or muted. */
export type BadgeTone = "active" | "danger" | "warn" | "subtle";

export interface FileBadge {
  kind: FileBadgeKind;
  label: string;
  title: string;
  tone: BadgeTone;
}

const ACTIVE_STATES = new Set(["queued", "running"]);

/** isActiveJob reports whether a job state still changes on its own. */
export function isActiveJob(state: string | undefined): boolean {
  return state !== undefined && ACTIVE_STATES.has(state);
}

const STALE_TITLE = "Stale summary: it was made from an older upload of this file. Compile again to refresh it.";
const FRESH_TITLE = "Summary is up to date with this upload.";

function summaryBadge(summary: ResourceNode["summary"], note = ""): FileBadge | null {
  if (summary === "stale") return { kind: "stale", label: "stale summary", title: STALE_TITLE + note, tone: "warn" };
  if (summary === "fresh") return { kind: "fresh", label: "summary", title: FRESH_TITLE + note, tone: "subtle" };
  return null;
}

function summaryNote(summary: ResourceNode["summary"]): string {
  if (summary === "stale") return " An older, stale summary exists.";
  if (summary === "fresh") return " The existing summary is up to date.";
  return "";
}

function runningBadge(job: JobBadge): FileBadge {
  const stage = job.stage ?? "";
  if (stage === "parse") return { kind: "parsing", label: "parsing", title: `Compile job #${job.id}: parsing the file`, tone: "active" };
  const what = stage ? `${stage} stage` : "running";
  return { kind: "compiling", label: "compiling", title: `Compile job #${job.id}: ${what}`, tone: "active" };
}

/**
 * fileBadge maps a listing item to the badge its row shows, or null. An
 * active job wins, then a failure, then the summary's freshness; a stale
 * summary is always visible, a fresh one is subtle.
 */
export function fileBadge(node: Pick<ResourceNode, "kind" | "job" | "summary">): FileBadge | null {
  if (node.kind !== "file") return null;
  const { job, summary } = node;
  switch (job?.state) {
    case "queued":
      return { kind: "queued", label: "queued", title: `Compile job #${job.id} is waiting to run.${summaryNote(summary)}`, tone: "active" };
    case "running":
      return runningBadge(job);
    case "failed":
      return {
        kind: "failed",
        label: "failed",
        title: `Compile failed: ${job.error?.trim() || "no reason given"}.${summaryNote(summary)}`,
        tone: "danger",
      };
    case "cancelled":
      return summaryBadge(summary, " The latest compile job was cancelled.") ?? {
        kind: "cancelled",
        label: "cancelled",
        title: `Compile job #${job.id} was cancelled.`,
        tone: "subtle",
      };
    default:
      return summaryBadge(summary);
  }
}
