// Turns the expanded part of the resource tree into the flat row list the
// virtualized view renders.

import i18n from "../i18n";
import type { Access, ResourceNode } from "../api/types";
import { SHARED_ROOT } from "../api/uri";

export interface FolderState {
  items: ResourceNode[];
  nextCursor: string | null;
  status: "pending" | "error" | "success";
  error?: string;
  /** what the caller may do in this folder, as its listing says */
  access?: Access;
}

export type TreeRow =
  | { type: "node"; key: string; node: ResourceNode; depth: number; expanded: boolean }
  | { type: "more"; key: string; folder: string; depth: number }
  | { type: "loading"; key: string; folder: string; depth: number }
  | { type: "error"; key: string; folder: string; depth: number; message: string }
  | { type: "empty"; key: string; folder: string; depth: number };

/**
 * flattenTree walks from root through the expanded folders, in listing order.
 * A folder's children appear only when it is expanded; a folder whose listing
 * has more pages ends with a "more" row, which the view uses to fetch the next page.
 */
export function flattenTree(
  root: string,
  expanded: ReadonlySet<string>,
  folders: ReadonlyMap<string, FolderState>,
  startDepth = 0,
): TreeRow[] {
  const rows: TreeRow[] = [];
  const visit = (folder: string, depth: number) => {
    const state = folders.get(folder);
    if (!state || state.status === "pending") {
      rows.push({ type: "loading", key: `loading:${folder}`, folder, depth });
      return;
    }
    if (state.status === "error") {
      rows.push({ type: "error", key: `error:${folder}`, folder, depth, message: state.error ?? i18n.t("tree:row.couldNotLoad") });
      return;
    }
    if (state.items.length === 0 && state.nextCursor === null) {
      rows.push({ type: "empty", key: `empty:${folder}`, folder, depth });
      return;
    }
    for (const node of state.items) {
      const isOpen = node.kind === "dir" && expanded.has(node.uri);
      rows.push({ type: "node", key: node.uri, node, depth, expanded: isOpen });
      if (isOpen) visit(node.uri, depth + 1);
    }
    if (state.nextCursor !== null) rows.push({ type: "more", key: `more:${folder}`, folder, depth });
  };
  visit(root, startDepth);
  return rows;
}

/** SHARED_SECTION is the row that heads "Shared with me"; it expands like a folder. */
export const SHARED_SECTION: ResourceNode = {
  uri: SHARED_ROOT,
  name: "Shared with me",
  kind: "dir",
  size: 0,
  updated_at: "",
  generated: false,
};

/**
 * flattenWorkspace is the user's own tree followed by the "Shared with me"
 * section. The section appears only once its listing has loaded with at
 * least one entry: a user nobody shares with (or a server without sharing)
 * sees the tree as before.
 */
export function flattenWorkspace(
  root: string,
  expanded: ReadonlySet<string>,
  folders: ReadonlyMap<string, FolderState>,
): TreeRow[] {
  const rows = flattenTree(root, expanded, folders);
  const shared = folders.get(SHARED_ROOT);
  if (shared?.status !== "success" || (shared.items.length === 0 && shared.nextCursor === null)) return rows;
  const open = expanded.has(SHARED_ROOT);
  rows.push({ type: "node", key: SHARED_ROOT, node: SHARED_SECTION, depth: 0, expanded: open });
  if (open) rows.push(...flattenTree(SHARED_ROOT, expanded, folders, 1));
  return rows;
}

/** expandedFolders lists root and every expanded folder that is reachable from it. */
export function visibleFolders(
  root: string,
  expanded: ReadonlySet<string>,
  folders: ReadonlyMap<string, FolderState>,
): string[] {
  const out = [root];
  const walk = (folder: string) => {
    for (const n of folders.get(folder)?.items ?? []) {
      if (n.kind === "dir" && expanded.has(n.uri)) {
        out.push(n.uri);
        walk(n.uri);
      }
    }
  };
  walk(root);
  return out;
}

/**
 * treeStatus keeps the tree valid for assistive technology, which expects a
 * tree to own tree items: before the first listing the tree is busy, and a
 * root with nothing to list (empty, or its listing failed) has its note shown
 * beside the tree instead of inside it.
 */
export function treeStatus(rows: readonly TreeRow[]): { busy: boolean; note?: TreeRow } {
  if (rows.some((r) => r.type === "node")) return { busy: false };
  const note = rows.find((r) => r.type === "empty" || r.type === "error");
  return note ? { busy: false, note } : { busy: rows.some((r) => r.type === "loading") };
}
