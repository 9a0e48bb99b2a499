// The cached folder listings as other parts see them: refetch some after a
// change, forget a renamed or deleted node's entries, read one the tree loaded.

import { useQuery } from "@tanstack/react-query";
import type { QueryClient } from "@tanstack/react-query";
import { queryKeys } from "./queryKeys";
import type { Listing } from "./types";
import { isWithin } from "./uri";

/** refreshFolders refetches the listings of the given folders, keeping loaded depth. */
export function refreshFolders(qc: QueryClient, uris: Iterable<string>): Promise<void> {
  return Promise.all(
    [...new Set(uris)].map(async (uri) => {
      const filters = { queryKey: queryKeys.listing(uri), exact: true };
      // A first fetch still in flight may predate the change; invalidating would
      // join it rather than start anew, so cancel it first.
      if (qc.getQueryData(queryKeys.listing(uri)) === undefined) await qc.cancelQueries(filters);
      await qc.invalidateQueries(filters);
    }),
  ).then(() => undefined);
}

/** forgetBelow drops every cached entry about uri or a node below it (see queryKeys). */
export function forgetBelow(qc: QueryClient, uri: string): void {
  qc.removeQueries({ predicate: (q) => typeof q.queryKey[1] === "string" && isWithin(q.queryKey[1], uri) });
}

/**
 * useCachedListing reads a folder's listing as the tree loaded it, without
 * fetching it: the tree owns the request and its paging.
 */
export function useCachedListing(uri: string) {
  return useQuery<Listing>({ queryKey: queryKeys.listing(uri), enabled: false });
}
