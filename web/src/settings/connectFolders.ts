// The folders "Connect an agent" offers: by their paths, home first, and the
// folder the workspace had open when Settings was opened from it.

import { folderOf, isWithin, relativePath } from "../api/uri";

export interface FolderChoice {
  uri: string;
  label: string;
}

/** startFolder is the folder of the address's ?open= within root, else root. */
export function startFolder(search: string, root: string): string {
  const open = new URLSearchParams(search).get("open");
  if (!open || !isWithin(open, root)) return root;
  return folderOf(open);
}

/** folderChoices lists root (named home), start when it is deeper, then folders, by path. */
export function folderChoices(folders: readonly string[], root: string, start: string, home: string): FolderChoice[] {
  const uris = [...new Set([start, ...folders])].filter((u) => u !== root && isWithin(u, root)).sort();
  return [{ uri: root, label: home }, ...uris.map((uri) => ({ uri, label: relativePath(uri, root) }))];
}
