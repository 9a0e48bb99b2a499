// A compiled folder's layers as the tree shows them: its abstract on the
// row, its overview from the toolbar.

import type { ResourceNode } from "../api/types";
import { SHARED_ROOT, isFolderURI, parentURI } from "../api/uri";
import type { FolderState } from "./flatten";

/** rowTitle is a row's tooltip: the abstract, whole, above where the row is. */
export function rowTitle(node: ResourceNode, place: string): string {
  return node.abstract ? `${node.abstract}\n\n${place}` : place;
}

/**
 * overviewOf is where the selected folder's overview is, if it was compiled
 * and its row is loaded: in its parent's listing, or among the entries of
 * "Shared with me".
 */
export function overviewOf(selected: string | null, folders: Map<string, FolderState>): string | undefined {
  if (!selected || !isFolderURI(selected)) return undefined;
  const find = (folder: string | null) => (folder ? folders.get(folder)?.items.find((n) => n.uri === selected) : undefined);
  return (find(parentURI(selected)) ?? find(SHARED_ROOT))?.overview_uri;
}
