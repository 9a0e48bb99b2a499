// The Share dialog's data as plain functions: the access list in the order it
// shows, and the directory hits a new share can go to.

import i18n from "../i18n";
import type { Grantee } from "../api/sharing";
import type { Directory, Share, ShareRole } from "../api/types";
import { relativePath } from "../api/uri";

/** GranteeKind says whether a grant is to one person or to a group. */
export type GranteeKind = "user" | "group";

/** AccessRow is one line of "who has access". */
export interface AccessRow {
  shareID: number;
  kind: GranteeKind;
  name: string;
  role: ShareRole;
  /** null for a share on this node; else the folder it is on, relative to the owner's root ("notes/") */
  via: string | null;
  /** the URI the share is on */
  uri: string;
}

/** Candidate is a directory hit a new share can go to. */
export interface Candidate {
  kind: GranteeKind;
  id: number;
  name: string;
}

/** roleLabel is a role as the dialog names it. */
export const roleLabel = (r: ShareRole): string => i18n.t(r === "write" ? "share:role.write" : "share:role.read");

function granteeOf(s: Share): { kind: GranteeKind; name: string } | null {
  if (s.user) return { kind: "user", name: s.user.username };
  if (s.group) return { kind: "group", name: s.group.name };
  return null;
}

/**
 * accessRows orders the shares covering a node: its own shares first (the
 * ones the dialog can change), then those inherited from folders above it,
 * nearest folder first; groups before people, then by name. A share naming
 * no grantee (a server bug) is left out rather than shown blank.
 */
export function accessRows(shares: readonly Share[], ownRoot: string): AccessRow[] {
  const rows: AccessRow[] = [];
  for (const s of shares) {
    const g = granteeOf(s);
    if (!g) continue;
    rows.push({
      shareID: s.id,
      kind: g.kind,
      name: g.name,
      role: s.role,
      via: s.inherited ? relativePath(s.uri, ownRoot) || "/" : null,
      uri: s.uri,
    });
  }
  return rows.sort(
    (a, b) =>
      Number(a.via !== null) - Number(b.via !== null) ||
      b.uri.length - a.uri.length ||
      (a.kind === b.kind ? 0 : a.kind === "group" ? -1 : 1) ||
      a.name.localeCompare(b.name),
  );
}

/**
 * candidates are the directory hits not already shared this node directly:
 * granting them again would answer 409 (their role is changed in the list).
 * Someone with an inherited share stays a candidate: a share on this node can
 * give them more (write below a read folder).
 */
export function candidates(dir: Directory, rows: readonly AccessRow[]): Candidate[] {
  const direct = new Set(rows.filter((r) => r.via === null).map((r) => `${r.kind}:${r.name}`));
  const out: Candidate[] = [
    ...dir.groups.map((g) => ({ kind: "group" as const, id: g.id, name: g.name })),
    ...dir.users.map((u) => ({ kind: "user" as const, id: u.id, name: u.username })),
  ];
  return out.filter((c) => !direct.has(`${c.kind}:${c.name}`));
}

/** granteeOfCandidate is the request field naming a candidate. */
export function granteeOfCandidate(c: Candidate): Grantee {
  return c.kind === "user" ? { user: c.name } : { group: c.name };
}

/** candidateLabel is how a hit reads in the list and to a screen reader. */
export function candidateLabel(c: { kind: GranteeKind; name: string }): string {
  return c.kind === "group" ? i18n.t("share:groupLabel", { name: c.name }) : c.name;
}
