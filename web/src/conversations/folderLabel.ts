import { displayPath } from "../api/uri";

/**
 * folderLabel names the folder a conversation is about the way the tree
 * does: home for the own root, a path relative to it below, "<owner>/<path>"
 * in a tree shared by someone else. Never a kb:// URI.
 */
export function folderLabel(uri: string, root: string, home: string): string {
  if (uri === root) return home;
  const path = displayPath(uri, root);
  return path.endsWith("/") ? path.slice(0, -1) : path;
}
