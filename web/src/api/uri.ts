// Helpers for kb:// URIs (SPEC §3). Folders end with "/"; a URI is never a disk path.

import i18n from "../i18n";

const SCHEME = "kb://";
/** MAX_NAME_LENGTH mirrors the server's limit on one path segment, in code points. */
export const MAX_NAME_LENGTH = 255;

/** rootURI is the personal root of a user. */
export function rootURI(username: string): string {
  return `${SCHEME}users/${username}/`;
}

/** SHARED_ROOT is the virtual folder listing what others shared with the caller. */
export const SHARED_ROOT = `${SCHEME}shared/`;

/** USERS is the top of every user's tree: a URI named below it reads "<owner>/<path>". */
export const USERS = `${SCHEME}users/`;

/** ownerOf is the user whose tree holds uri (kb://users/<owner>/…), or null for other URIs. */
export function ownerOf(uri: string): string | null {
  if (!uri.startsWith(USERS)) return null;
  const rest = uri.slice(USERS.length);
  const i = rest.indexOf("/");
  return i > 0 ? rest.slice(0, i) : null;
}

/**
 * revealFolders lists the folders to expand so that uri shows in the tree:
 * in the own tree those between its root and uri; in someone else's tree the
 * "Shared with me" section and every folder above uri below that user's root.
 * The shared entry lies among the latter; folders above it are never listed
 * (the tree loads only folders inside a shared entry), so expanding them is
 * harmless and needs no knowledge of which folder was shared.
 */
export function revealFolders(uri: string, ownRoot: string): string[] {
  if (isWithin(uri, ownRoot)) return ancestorFolders(uri, ownRoot);
  const owner = ownerOf(uri);
  if (owner === null) return [];
  return [SHARED_ROOT, ...ancestorFolders(uri, rootURI(owner))];
}

/** sharedEntryOf is the shared entry (a "Shared with me" item's URI) that holds uri, if any. */
export function sharedEntryOf(uri: string, entries: readonly string[]): string | null {
  let best: string | null = null;
  for (const e of entries) if (isWithin(uri, e) && (best === null || e.length > best.length)) best = e;
  return best;
}

/**
 * scopeFor is the KnowAgent folder for a selection: the folder of a file, or
 * the folder itself. Null means "keep the current scope": the "Shared with
 * me" heading, or a shared file whose folder was not shared (the caller may
 * not read it).
 */
export function scopeFor(uri: string, ownRoot: string, sharedEntries: readonly string[]): string | null {
  const folder = folderOf(uri);
  if (isWithin(folder, ownRoot)) return folder;
  if (uri === SHARED_ROOT || ownerOf(folder) === null) return null;
  return sharedEntries.some((e) => isFolderURI(e) && isWithin(folder, e)) ? folder : null;
}

/** displayPath shows a URI in the preview header: relative in the own tree, "<owner>/<path>" in another's. */
export function displayPath(uri: string, ownRoot: string): string {
  if (isWithin(uri, ownRoot)) return relativePath(uri, ownRoot);
  return ownerOf(uri) !== null ? uri.slice(USERS.length) : uri;
}

/** isFolderURI reports whether a URI names a folder. */
export function isFolderURI(uri: string): boolean {
  return uri.endsWith("/");
}

/** nameOf returns the last segment of a URI, without the trailing slash of a folder. */
export function nameOf(uri: string): string {
  const trimmed = isFolderURI(uri) ? uri.slice(0, -1) : uri;
  const i = trimmed.lastIndexOf("/");
  return i < 0 ? trimmed : trimmed.slice(i + 1);
}

/**
 * parentURI returns the folder that holds a node, or null for a scheme root
 * such as kb://users/ (nothing above it is addressable).
 */
export function parentURI(uri: string): string | null {
  if (!uri.startsWith(SCHEME)) return null;
  const trimmed = isFolderURI(uri) ? uri.slice(0, -1) : uri;
  const i = trimmed.lastIndexOf("/");
  if (i < SCHEME.length) return null;
  return trimmed.slice(0, i + 1);
}

/** childURI names a child of a folder. */
export function childURI(folder: string, name: string, kind: "dir" | "file"): string {
  const base = isFolderURI(folder) ? folder : folder + "/";
  return base + name + (kind === "dir" ? "/" : "");
}

/** renamedURI returns the URI a node gets when renamed within its folder. */
export function renamedURI(uri: string, newName: string): string {
  const parent = parentURI(uri);
  if (parent === null) throw new Error(`cannot rename ${uri}`);
  return childURI(parent, newName, isFolderURI(uri) ? "dir" : "file");
}

/** folderOf returns the URI itself for a folder, or its parent for a file. */
export function folderOf(uri: string): string {
  return isFolderURI(uri) ? uri : (parentURI(uri) ?? uri);
}

/** isWithin reports whether uri is root itself or lies below it. */
export function isWithin(uri: string, root: string): boolean {
  return uri === root || (isFolderURI(root) && uri.startsWith(root));
}

/**
 * ancestorFolders lists the folders strictly between root and uri, outermost
 * first: the folders to expand to reveal uri in a tree rooted at root.
 */
export function ancestorFolders(uri: string, root: string): string[] {
  if (!isWithin(uri, root) || uri === root) return [];
  const out: string[] = [];
  let p = parentURI(uri);
  while (p !== null && p !== root && isWithin(p, root)) {
    out.unshift(p);
    p = parentURI(p);
  }
  return out;
}

/** relativePath shows a URI relative to a root, e.g. "notes/plan.md". */
export function relativePath(uri: string, root: string): string {
  return isWithin(uri, root) ? uri.slice(root.length) : uri;
}

/** extensionOf returns the lower-case extension of a file name, without the dot. */
export function extensionOf(name: string): string {
  const i = name.lastIndexOf(".");
  return i <= 0 ? "" : name.slice(i + 1).toLowerCase();
}

/**
 * validateName checks a single file or folder name the way the server will,
 * returning a message that explains the problem, or null when it is fine.
 */
export function validateName(name: string): string | null {
  if (name.trim() === "") return i18n.t("common:name.empty");
  if (name !== name.trim()) return i18n.t("common:name.spaces");
  if (name === "." || name === "..") return i18n.t("common:name.dots", { name });
  if (name.includes("/") || name.includes("\\")) return i18n.t("common:name.separator");
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return i18n.t("common:name.control");
  if (/[\u202A-\u202E\u2066-\u2069\u200B-\u200F\u2060\uFEFF\u061C\u180E]/.test(name))
    return i18n.t("common:name.invisible");
  if (/%2f|%5c/i.test(name)) return i18n.t("common:name.encoded");
  if ([...name].length > MAX_NAME_LENGTH) return i18n.t("common:name.long", { max: MAX_NAME_LENGTH });
  return null;
}
