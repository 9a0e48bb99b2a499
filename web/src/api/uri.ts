// Helpers for kb:// URIs (SPEC §3). Folders end with "/"; a URI is never a disk path.

const SCHEME = "kb://";
/** MAX_NAME_LENGTH mirrors the server's limit on one path segment, in code points. */
export const MAX_NAME_LENGTH = 255;

/** rootURI is the personal root of a user. */
export function rootURI(username: string): string {
  return `${SCHEME}users/${username}/`;
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
  if (name.trim() === "") return "Name is empty.";
  if (name !== name.trim()) return "Name cannot start or end with spaces.";
  if (name === "." || name === "..") return `"${name}" is not a valid name.`;
  if (name.includes("/") || name.includes("\\")) return "Name cannot contain / or \\.";
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return "Name cannot contain control characters.";
  if (/[\u202A-\u202E\u2066-\u2069\u200B-\u200F\u2060\uFEFF\u061C\u180E]/.test(name))
    return "Name cannot contain invisible or direction-changing characters.";
  if (/%2f|%5c/i.test(name)) return "Name cannot contain encoded separators.";
  if ([...name].length > MAX_NAME_LENGTH) return `Name is longer than ${MAX_NAME_LENGTH} characters.`;
  return null;
}
