// The audit log's endpoints: the admin's filtered listing and export, and
// the caller's own sign-ins and token uses.

import { request, requestJSON } from "../api/client";
import type { components } from "../api/schema";

export type AuditEvent = components["schemas"]["AuditEvent"];
export type AuditAction = components["schemas"]["AuditAction"];

export interface AuditPage {
  items: AuditEvent[];
  next_cursor: string | null;
}

/** AuditFilter narrows the admin's listing; empty fields match everything. */
export interface AuditFilter {
  userID: number;
  action: AuditAction | "";
  /** yyyy-mm-dd, the first day shown (from its start, local time) */
  from: string;
  /** yyyy-mm-dd, the last day shown (to its end, local time) */
  to: string;
}

export const noFilter: AuditFilter = { userID: 0, action: "", from: "", to: "" };

/** AUDIT_PAGE is how many events one page loads. */
export const AUDIT_PAGE = 100;

// A day picked in the browser starts at local midnight; the server takes
// RFC 3339 instants.
function dayStart(day: string, plusDays = 0): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return undefined;
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + plusDays).toISOString();
}

/** auditQuery is the filter as the listing's and the export's query parameters. */
export function auditQuery(f: AuditFilter) {
  return { user_id: f.userID || undefined, action: f.action || undefined, since: dayStart(f.from), until: dayStart(f.to, 1) };
}

export function listAudit(f: AuditFilter, cursor: string | undefined, signal?: AbortSignal): Promise<AuditPage> {
  return requestJSON("/admin/audit", { query: { ...auditQuery(f), cursor, limit: AUDIT_PAGE }, signal });
}

/** exportAudit fetches every event the filter matches as JSON lines. */
export async function exportAudit(f: AuditFilter): Promise<Blob> {
  return (await request("/admin/audit/export", { query: auditQuery(f) })).blob();
}

export function listOwnAudit(cursor: string | undefined, signal?: AbortSignal): Promise<AuditPage> {
  return requestJSON("/auth/audit", { query: { cursor, limit: AUDIT_PAGE }, signal });
}
