// Admin endpoints for groups and the user list the Groups screen picks members from.

import { request, requestJSON } from "./client";
import type { AdminUser, Group } from "./types";

/** listGroups lists every group with its members (admin). */
export async function listGroups(signal?: AbortSignal): Promise<Group[]> {
  const res = await requestJSON<{ items: Group[] | null }>("/admin/groups", { signal });
  return (res.items ?? []).map((g) => ({ ...g, members: g.members ?? [] }));
}

/** createGroup makes an empty group. */
export function createGroup(name: string): Promise<Group> {
  return requestJSON<Group>("/admin/groups", { method: "POST", json: { name } });
}

/** renameGroup gives a group a new name. */
export function renameGroup(id: number, name: string): Promise<Group> {
  return requestJSON<Group>(`/admin/groups/${id}`, { method: "PATCH", json: { name } });
}

/** deleteGroup removes a group; the shares made to it end. */
export async function deleteGroup(id: number): Promise<void> {
  await request(`/admin/groups/${id}`, { method: "DELETE" });
}

/** addMember puts a user in a group (idempotent). */
export function addMember(groupID: number, userID: number): Promise<Group> {
  return requestJSON<Group>(`/admin/groups/${groupID}/members/${userID}`, { method: "PUT" });
}

/** removeMember takes a user out of a group. */
export async function removeMember(groupID: number, userID: number): Promise<void> {
  await request(`/admin/groups/${groupID}/members/${userID}`, { method: "DELETE" });
}

/** listUsers lists every account (admin). */
export async function listUsers(signal?: AbortSignal): Promise<AdminUser[]> {
  const res = await requestJSON<{ items: AdminUser[] | null }>("/admin/users", { signal });
  return res.items ?? [];
}
