// A compiled folder's layers as the tree shows them: its abstract on the
// row, its overview from the toolbar.

import type { ResourceNode } from "../api/types";
import { isFolderURI, parentURI } from "../api/uri";
import type { FolderState } from "./flatten";

/** rowTitle is a row's tooltip: the abstract, whole, above the address. */
export function rowTitle(node: ResourceNode): string {
  return node.abstract ? `${node.abstract}\n\n${node.uri}` : node.uri;
}

/** overviewOf is where the selected folder's overview is, if it was compiled and its row is loaded. */
export function overviewOf(selected: string | null, folders: Map<string, FolderState>): string | undefined {
  if (!selected || !isFolderURI(selected)) return undefined;
  const parent = parentURI(selected);
  if (!parent) return undefined;
  return folders.get(parent)?.items.find((n) => n.uri === selected)?.overview_uri;
}
