// The browser tab names what is open, so several tabs of the workspace can
// be told apart.

import { isFolderURI, nameOf } from "../api/uri";

/** PRODUCT_TITLE is the tab's title outside the workspace (sign-in, settings). */
export const PRODUCT_TITLE = "Knowspace";

/** pageTitle is the tab's title with uri open: its name, or home for the root (or nothing open). */
export function pageTitle(uri: string | null, ownRoot: string, home: string): string {
  if (!uri || uri === ownRoot) return `${home} — ${PRODUCT_TITLE}`;
  return `${nameOf(uri)}${isFolderURI(uri) ? "/" : ""} — ${PRODUCT_TITLE}`;
}
