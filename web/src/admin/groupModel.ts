// The Groups screen's rules as plain functions.

import type { AdminUser, Group } from "../api/types";
import i18n from "../i18n";

/** GROUP_NAME is the server's rule for group names, the same as for usernames. */
const GROUP_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** validateGroupName explains what is wrong with a group name, or returns null when the server will take it. */
export function validateGroupName(name: string): string | null {
  if (name.trim() === "") return i18n.t("admin:groups.nameEmpty");
  if (name.length > 64) return i18n.t("admin:groups.nameLong");
  if (/[A-Z]/.test(name) && GROUP_NAME.test(name.toLowerCase())) return i18n.t("admin:groups.nameUpper");
  if (!/^[a-z0-9]/.test(name)) return i18n.t("admin:groups.nameStart");
  if (!GROUP_NAME.test(name)) return i18n.t("admin:groups.nameChars");
  return null;
}

/** memberCandidates are the enabled accounts not yet in the group, by name. */
export function memberCandidates(users: readonly AdminUser[], group: Group): AdminUser[] {
  const in_ = new Set(group.members.map((m) => m.id));
  return users.filter((u) => !u.disabled && !in_.has(u.id)).sort((a, b) => a.username.localeCompare(b.username));
}

/** sortGroups orders groups by name and each group's members by username. */
export function sortGroups(groups: readonly Group[]): Group[] {
  return [...groups]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((g) => ({ ...g, members: [...g.members].sort((a, b) => a.username.localeCompare(b.username)) }));
}
