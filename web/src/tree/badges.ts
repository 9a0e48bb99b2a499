// Which job / summary badge a file row of the tree shows (SPEC §7, §11:
// stale summaries are visible in the tree). One badge per row at most, so
// rows keep their height and stay calm; the title carries the detail.

import type { JobBadge, ResourceNode } from "../api/types";
import i18n from "../i18n";
import { errorText } from "../ui/errors";

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

function summaryBadge(summary: ResourceNode["summary"], note = ""): FileBadge | null {
  if (summary === "stale") return { kind: "stale", label: i18n.t("tree:badge.staleLabel"), title: i18n.t("tree:badge.staleTitle") + note, tone: "warn" };
  if (summary === "fresh") return { kind: "fresh", label: i18n.t("tree:badge.freshLabel"), title: i18n.t("tree:badge.freshTitle") + note, tone: "subtle" };
  return null;
}

function summaryNote(summary: ResourceNode["summary"]): string {
  if (summary === "stale") return i18n.t("tree:badge.staleNote");
  if (summary === "fresh") return i18n.t("tree:badge.freshNote");
  return "";
}

function runningBadge(job: JobBadge): FileBadge {
  const stage = job.stage ?? "";
  if (stage === "parse") return { kind: "parsing", label: i18n.t("tree:badge.parsing"), title: i18n.t("tree:badge.parsingTitle", { id: job.id }), tone: "active" };
  const title = stage ? i18n.t("tree:badge.stageTitle", { id: job.id, stage }) : i18n.t("tree:badge.runningTitle", { id: job.id });
  return { kind: "compiling", label: i18n.t("tree:badge.compiling"), title, tone: "active" };
}

/**
 * fileBadge maps a listing item to the badge its row shows, or null. An
 * active job wins, then a failure, then the summary's freshness; a stale
 * summary is always visible, a fresh one is subtle.
 */
/** failureReason says why a job failed: by its code in the reader's words, else as the server wrote it. */
function failureReason(job: { error?: string; error_code?: string }): string {
  const message = job.error?.trim() ?? "";
  // The title ends the sentence itself.
  if (job.error_code) return errorText({ code: job.error_code, message }).replace(/[.。]$/, "");
  return message || i18n.t("tree:badge.noReason");
}

export function fileBadge(node: Pick<ResourceNode, "kind" | "job" | "summary">): FileBadge | null {
  if (node.kind !== "file") return null;
  const { job, summary } = node;
  switch (job?.state) {
    case "queued":
      return { kind: "queued", label: i18n.t("tree:badge.queued"), title: i18n.t("tree:badge.queuedTitle", { id: job.id }) + summaryNote(summary), tone: "active" };
    case "running":
      return runningBadge(job);
    case "failed":
      return {
        kind: "failed",
        label: i18n.t("tree:badge.failed"),
        title: i18n.t("tree:badge.failedTitle", { reason: failureReason(job) }) + summaryNote(summary),
        tone: "danger",
      };
    case "cancelled":
      return summaryBadge(summary, i18n.t("tree:badge.cancelledNote")) ?? {
        kind: "cancelled",
        label: i18n.t("tree:badge.cancelled"),
        title: i18n.t("tree:badge.cancelledTitle", { id: job.id }),
        tone: "subtle",
      };
    default:
      return summaryBadge(summary);
  }
}
