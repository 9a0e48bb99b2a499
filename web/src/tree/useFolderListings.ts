// Server state of the tree: one react-query entry per loaded folder, holding
// every page fetched so far.

import { useCallback, useMemo, useRef } from "react";
import { useQueries, useQueryClient } from "@tanstack/react-query";
import { queryKeys } from "../api/queryKeys";
import { listAtLeast, listResources } from "../api/resources";
import type { Listing } from "../api/types";
import { messageOf } from "../ui/errors";
import type { FolderState } from "./flatten";

/** How often a folder with documents waiting for their text is listed again. */
const EXTRACTING_POLL_MS = 3000;

/** useFolderListings loads the given folders and exposes their state plus paging. */
export function useFolderListings(folders: readonly string[]) {
  const qc = useQueryClient();
  const results = useQueries({
    queries: folders.map((uri) => ({
      queryKey: queryKeys.listing(uri),
      queryFn: ({ signal }: { signal: AbortSignal }) => {
        // A refetch reloads as many entries as were already scrolled in.
        const have = qc.getQueryData<Listing>(queryKeys.listing(uri))?.items.length ?? 0;
        return listAtLeast(uri, have, signal);
      },
      // Documents get their text moments after upload: their rows follow.
      refetchInterval: (q: { state: { data?: Listing } }) =>
        q.state.data?.items.some((n) => n.text_state === "text_pending") ? EXTRACTING_POLL_MS : false,
    })),
  });

  const map = useMemo(() => {
    const m = new Map<string, FolderState>();
    folders.forEach((uri, i) => {
      const r = results[i];
      if (!r) return;
      if (r.data) {
        m.set(uri, { items: r.data.items, nextCursor: r.data.next_cursor, status: "success", access: r.data.access });
      } else if (r.isError) {
        m.set(uri, { items: [], nextCursor: null, status: "error", error: messageOf(r.error) });
      } else {
        m.set(uri, { items: [], nextCursor: null, status: "pending" });
      }
    });
    return m;
  }, [folders, results]);

  const inflight = useRef(new Set<string>());
  const loadMore = useCallback(
    async (uri: string) => {
      const cur = qc.getQueryData<Listing>(queryKeys.listing(uri));
      if (!cur || cur.next_cursor === null || inflight.current.has(uri)) return;
      inflight.current.add(uri);
      try {
        const page = await listResources(uri, cur.next_cursor);
        qc.setQueryData<Listing>(queryKeys.listing(uri), (old) => {
          if (!old || old.next_cursor !== cur.next_cursor) return old;
          const seen = new Set(old.items.map((n) => n.uri));
          return {
            uri: old.uri,
            access: old.access,
            items: [...old.items, ...page.items.filter((n) => !seen.has(n.uri))],
            next_cursor: page.next_cursor ?? null,
          };
        });
      } finally {
        inflight.current.delete(uri);
      }
    },
    [qc],
  );

  return { folders: map, loadMore };
}
