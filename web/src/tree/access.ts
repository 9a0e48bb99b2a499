// What the caller may do where: the tree hides write actions in folders
// shared read-only, and offers Share only on the caller's own nodes. The
// server decides in the end (a read grantee's write answers 403 read_only);
// this only keeps the UI from offering what would fail.

import type { Access } from "../api/types";
import { SHARED_ROOT, isFolderURI, isWithin, ownerOf, parentURI, rootURI } from "../api/uri";
import type { FolderState } from "./flatten";

/** sharedEntries are the URIs of the "Shared with me" items loaded so far. */
export function sharedEntries(folders: ReadonlyMap<string, FolderState>): string[] {
  return (folders.get(SHARED_ROOT)?.items ?? []).map((n) => n.uri);
}

/**
 * accessIn is the caller's access in a folder: "owner" in the own tree; in a
 * shared tree the access of the nearest listing loaded at or above it, else
 * the role of the shared entry holding it; "read" when nothing says more.
 */
export function accessIn(folder: string, ownRoot: string, folders: ReadonlyMap<string, FolderState>): Access {
  if (isWithin(folder, ownRoot)) return "owner";
  if (folder === SHARED_ROOT) return "read";
  const owner = ownerOf(folder);
  if (owner === null) return "read";
  const entries = folders.get(SHARED_ROOT)?.items ?? [];
  const top = rootURI(owner);
  for (let p: string | null = folder; p !== null && p !== top; p = parentURI(p)) {
    const listed = folders.get(p)?.access;
    if (listed) return listed;
    const entry = entries.find((n) => n.uri === p);
    if (entry) return entry.role ?? "read";
  }
  return "read";
}

/** canWriteIn says whether new folders and uploads may go into folder. */
export function canWriteIn(folder: string, ownRoot: string, folders: ReadonlyMap<string, FolderState>): boolean {
  return accessIn(folder, ownRoot, folders) !== "read";
}

/**
 * canModify says whether uri may be renamed or deleted: not a root, not the
 * "Shared with me" heading nor one of its entries (those are the owner's to
 * move), and its folder writable.
 */
export function canModify(uri: string, ownRoot: string, folders: ReadonlyMap<string, FolderState>): boolean {
  if (uri === ownRoot || uri === SHARED_ROOT) return false;
  if (!isWithin(uri, ownRoot) && sharedEntries(folders).includes(uri)) return false;
  const parent = parentURI(uri);
  return parent !== null && canWriteIn(parent, ownRoot, folders);
}

/**
 * isGenerated says whether uri is a file compile made, by its loaded
 * listing: the server refuses renaming, moving or replacing one
 * (generated_read_only); it may be copied to edit, or deleted.
 */
export function isGenerated(uri: string, folders: ReadonlyMap<string, FolderState>): boolean {
  const parent = parentURI(uri);
  const node = parent === null ? undefined : folders.get(parent)?.items.find((n) => n.uri === uri);
  return node?.generated === true;
}

/** canRename says whether uri may be renamed: canModify, and not compile output. */
export function canRename(uri: string, ownRoot: string, folders: ReadonlyMap<string, FolderState>): boolean {
  return canModify(uri, ownRoot, folders) && !isGenerated(uri, folders);
}

/** canCopyToEdit says whether uri is a generated file to offer "Copy to edit" on. */
export function canCopyToEdit(uri: string | null, folders: ReadonlyMap<string, FolderState>): uri is string {
  return uri !== null && !isFolderURI(uri) && isGenerated(uri, folders);
}

/** canShare says whether uri is the caller's to share: anything in the own tree but its root. */
export function canShare(uri: string, ownRoot: string): boolean {
  return uri !== ownRoot && isWithin(uri, ownRoot);
}
