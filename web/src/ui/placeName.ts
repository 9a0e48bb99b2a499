// Where a file or folder is, in the reader's words: "Home" for the own root,
// a path below it, "<owner>/<path>" in someone else's tree. kb:// addresses
// are shown only where a user copies them.

import { useCallback, useContext } from "react";
import { useTranslation } from "react-i18next";
import { SessionContext } from "../auth/sessionContext";
import { displayPath, rootURI } from "../api/uri";

const ME = "kb://me/";

/** placeName names uri for a reader whose own root is root (null: unknown, the URI is shown as it is). */
export function placeName(uri: string, root: string | null, home: string): string {
  if (!root) return uri;
  const abs = uri.startsWith(ME) ? root + uri.slice(ME.length) : uri;
  return abs === root ? home : displayPath(abs, root);
}

/** addressesAsMe writes the reader's own root as kb://me/ in text that shows addresses (a tool call's arguments). */
export function addressesAsMe(text: string, root: string | null): string {
  return root ? text.split(root).join(ME) : text;
}

/** useOwnRoot is the signed-in user's root URI, or null outside a session. */
export function useOwnRoot(): string | null {
  const user = useContext(SessionContext)?.user;
  return user ? rootURI(user.username) : null;
}

/** usePlaceName is placeName for the signed-in user. */
export function usePlaceName(): (uri: string) => string {
  const { t } = useTranslation("tree");
  const root = useOwnRoot();
  return useCallback((uri: string) => placeName(uri, root, t("home")), [root, t]);
}
