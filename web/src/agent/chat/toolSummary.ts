// The tool card words a result's summary from its fields, in the reader's
// language. The server's summary stays for the model, which reads English;
// a result this does not know is shown with the server's words.

import type { TFunction } from "i18next";

type Fields = Record<string, unknown>;

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const list = (v: unknown): unknown[] | null => (Array.isArray(v) ? v : null);

function searchSummary(t: TFunction, r: Fields): string | null {
  const hits = list(r.hits);
  const scanned = num(r.scanned);
  const matched = num(r.matched_files);
  if (!hits || scanned === null || matched === null) return null;
  const mode = typeof r.mode === "string" ? r.mode : "";
  const n = (key: string, count: number) => t(`agent:toolSummary.${key}`, { count });
  let s: string;
  if (mode === "index") {
    s = t("agent:toolSummary.searchIndex", { hits: n("hits", hits.length), files: n("files", matched), candidates: n("candidates", scanned) });
  } else if (mode === "ranked" || mode === "meaning" || mode === "hybrid") {
    s = t("agent:toolSummary.searchRanked", { mode: t(`agent:toolSummary.mode.${mode}`), passages: n("passages", hits.length), scanned, files: n("matchingFiles", matched) });
  } else {
    s = t("agent:toolSummary.searchScan", { hits: n("hits", hits.length), matched, scanned: n("files", scanned) });
  }
  if (r.next_offset != null) s += t("agent:toolSummary.partial");
  const pending = num(r.pending_files);
  if (pending) s += t("agent:toolSummary.pending", { count: pending });
  return s;
}

function lsSummary(t: TFunction, r: Fields): string | null {
  const items = list(r.items);
  if (!items) return null;
  const folders = items.filter((it) => !!it && typeof it === "object" && (it as Fields).kind === "dir").length;
  const n = (key: string, count: number) => t(`agent:toolSummary.${key}`, { count });
  let s = t("agent:toolSummary.ls", { items: n("items", items.length), folders: n("folders", folders), files: n("files", items.length - folders) });
  if (r.next_offset != null || r.next_cursor != null) s += t("agent:toolSummary.more");
  return s;
}

function readSummary(t: TFunction, r: Fields): string | null {
  const total = num(r.total);
  const offset = num(r.offset);
  if (total === null || offset === null || typeof r.text !== "string") return null;
  if (r.body === "none") return null;
  if (total === 0) return t("agent:toolSummary.readEmpty");
  if (offset >= total) return t("agent:toolSummary.readEnd", { total });
  return t("agent:toolSummary.read", { from: offset, to: offset + [...r.text].length, total });
}

function statusSummary(t: TFunction, r: Fields): string | null {
  const jobs = list(r.jobs);
  const cv = r.coverage && typeof r.coverage === "object" ? (r.coverage as Fields) : null;
  const files = num(cv?.files);
  const summarized = num(cv?.summarized);
  if (!jobs || files === null || summarized === null) return null;
  return t("agent:toolSummary.status", {
    jobs: jobs.length ? t("agent:toolSummary.jobs", { count: jobs.length }) : t("agent:toolSummary.noJobs"),
    files: t("agent:toolSummary.files", { count: files }),
    summarized,
    stale: num(cv?.stale) ?? 0,
    failed: num(cv?.failed) ?? 0,
  });
}

/** toolSummary is the card's summary of a successful result, or null to show the server's. */
export function toolSummary(t: TFunction, tool: string, result: unknown): string | null {
  if (!result || typeof result !== "object") return null;
  const r = result as Fields;
  switch (tool) {
    case "search":
      return searchSummary(t, r);
    case "ls":
      return lsSummary(t, r);
    case "read":
      return readSummary(t, r);
    case "status":
      return statusSummary(t, r);
    default:
      return null;
  }
}
