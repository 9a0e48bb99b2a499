// A tiny router for the few pages with their own URL: the path lives in
// history, so back and forward work and a reload lands on the same page.

import { useSyncExternalStore } from "react";

const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());
window.addEventListener("popstate", emit);

/** navigate goes to path as a new history entry (replace: in place). */
export function navigate(path: string, opts: { replace?: boolean } = {}) {
  if (path === window.location.pathname + window.location.search) return;
  if (opts.replace) window.history.replaceState(null, "", path);
  else window.history.pushState(null, "", path);
  emit();
}

/**
 * withOpen is path carrying the address's open file or folder (?open=), so
 * a page opened from the workspace knows where the user was, and going
 * back to the workspace opens it again.
 */
export function withOpen(path: string): string {
  const open = new URLSearchParams(window.location.search).get("open");
  return open ? `${path}?open=${encodeURIComponent(open)}` : path;
}

function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** usePath is the current location's path, updated on navigate and back/forward. */
export function usePath(): string {
  return useSyncExternalStore(subscribe, () => window.location.pathname);
}

/** sectionOf picks the section of /base/<section> among known ones, or the first. */
export function sectionOf<T extends string>(path: string, base: string, sections: readonly T[]): T {
  const rest = path.slice(base.length).replace(/^\/+/, "").split("/")[0] ?? "";
  return (sections as readonly string[]).includes(rest) ? (rest as T) : sections[0]!;
}
