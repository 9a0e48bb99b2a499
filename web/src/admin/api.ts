// The admin endpoints the Admin page calls (users, tokens, jobs, overview).

import { request, requestJSON } from "../api/client";
import type { AdminUser, Role } from "../api/types";
import type { components } from "../api/schema";
import type { APIToken } from "../settings/api";

type Schemas = components["schemas"];

export function createUser(username: string, password: string, role: Role): Promise<AdminUser> {
  return requestJSON("/admin/users", { method: "POST", json: { username, password, role } });
}

/** updateUser changes any of password, role and disabled. */
export function updateUser(id: number, change: { password?: string; role?: Role; disabled?: boolean }): Promise<AdminUser> {
  return requestJSON(`/admin/users/${id}`, { method: "PATCH", json: change });
}

export async function listAllTokens(signal?: AbortSignal): Promise<APIToken[]> {
  return (await requestJSON<{ items: APIToken[] | null }>("/admin/tokens", { signal })).items ?? [];
}

export async function revokeAnyToken(id: number): Promise<void> {
  await request(`/admin/tokens/${id}`, { method: "DELETE" });
}

export type AdminJob = Schemas["AdminJob"];

export async function listAllJobs(filter: { state?: string; user_id?: number }, signal?: AbortSignal): Promise<AdminJob[]> {
  const query = { state: filter.state || undefined, user_id: filter.user_id || undefined, limit: 200 };
  return (await requestJSON<{ items: AdminJob[] | null }>("/admin/jobs", { query, signal })).items ?? [];
}

export function cancelAnyJob(id: number): Promise<AdminJob> {
  return requestJSON(`/admin/jobs/${id}/cancel`, { method: "POST" });
}

/** Overview is GET /admin/overview; active_streams counts the replica that answered. */
export type Overview = Schemas["Overview"];

export function fetchOverview(signal?: AbortSignal): Promise<Overview> {
  return requestJSON("/admin/overview", { signal });
}
