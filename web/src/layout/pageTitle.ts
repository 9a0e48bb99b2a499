// The browser tab names what is open, so several tabs of the workspace can
// be told apart.

import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { isFolderURI, nameOf } from "../api/uri";

/** PRODUCT_TITLE is the tab's title outside the workspace (sign-in, settings). */
const PRODUCT_TITLE = "Knowspace";

/** pageTitle is the tab's title with uri open: its name, or home for the root (or nothing open). */
export function pageTitle(uri: string | null, ownRoot: string, home: string): string {
  if (!uri || uri === ownRoot) return `${home} — ${PRODUCT_TITLE}`;
  return `${nameOf(uri)}${isFolderURI(uri) ? "/" : ""} — ${PRODUCT_TITLE}`;
}

/** usePageTitle keeps the tab's title on uri while the workspace shows it. */
export function usePageTitle(uri: string | null, ownRoot: string) {
  const { t } = useTranslation("tree");
  const home = t("home");
  useEffect(() => {
    document.title = pageTitle(uri, ownRoot, home);
    return () => {
      document.title = PRODUCT_TITLE;
    };
  }, [uri, ownRoot, home]);
}
