// Turns the expanded part of the resource tree into the flat row list the
// virtualized view renders.

import type { ResourceNode } from "../api/types";

export interface FolderState {
  items: ResourceNode[];
  nextOffset: number | null;
  status: "pending" | "error" | "success";
  error?: string;
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
): TreeRow[] {
  const rows: TreeRow[] = [];
  const visit = (folder: string, depth: number) => {
    const state = folders.get(folder);
    if (!state || state.status === "pending") {
      rows.push({ type: "loading", key: `loading:${folder}`, folder, depth });
      return;
    }
    if (state.status === "error") {
      rows.push({ type: "error", key: `error:${folder}`, folder, depth, message: state.error ?? "Could not load" });
      return;
    }
    if (state.items.length === 0 && state.nextOffset === null) {
      rows.push({ type: "empty", key: `empty:${folder}`, folder, depth });
      return;
    }
    for (const node of state.items) {
      const isOpen = node.kind === "dir" && expanded.has(node.uri);
      rows.push({ type: "node", key: node.uri, node, depth, expanded: isOpen });
      if (isOpen) visit(node.uri, depth + 1);
    }
    if (state.nextOffset !== null) rows.push({ type: "more", key: `more:${folder}`, folder, depth });
  };
  visit(root, 0);
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
