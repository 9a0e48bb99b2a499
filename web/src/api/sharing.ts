// Sharing endpoints (issue #21): who has access to a node, granting, and the
// directory of people and groups to grant to.

import { request, requestJSON } from "./client";
import type { Directory, Share, ShareRole } from "./types";

/** Grantee names who a new share is for: a person by username or a group by name. */
export type Grantee = { user: string } | { group: string };

/** listShares lists every share covering uri, on it and on its ancestors (owner only). */
export async function listShares(uri: string, signal?: AbortSignal): Promise<Share[]> {
  const res = await requestJSON<{ items: Share[] | null }>("/resources/shares", { query: { uri }, signal });
  return res.items ?? [];
}

/** createShare grants a person or a group a role on uri. */
export function createShare(uri: string, grantee: Grantee, role: ShareRole): Promise<Share> {
  return requestJSON<Share>("/resources/shares", { method: "POST", json: { uri, ...grantee, role } });
}

/** updateShare changes a share's role. */
export function updateShare(id: number, role: ShareRole): Promise<Share> {
  return requestJSON<Share>(`/resources/shares/${id}`, { method: "PATCH", json: { role } });
}

/** deleteShare ends a share. */
export async function deleteShare(id: number): Promise<void> {
  await request(`/resources/shares/${id}`, { method: "DELETE" });
}

/** searchDirectory finds people and groups whose name starts with q, at most 20 of each. */
export async function searchDirectory(q: string, signal?: AbortSignal): Promise<Directory> {
  const res = await requestJSON<Partial<Directory>>("/auth/directory", { query: { q }, signal });
  return { users: res.users ?? [], groups: res.groups ?? [] };
}
