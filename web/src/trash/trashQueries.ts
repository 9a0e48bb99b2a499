// The trash and a file's versions: what they list, and the writes that bring
// something back or delete it for good.

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { refreshFolders } from "../api/listingQueries";
import { queryKeys } from "../api/queryKeys";
import { emptyTrash, listTrash, listVersions, purgeTrash, restoreTrash, restoreVersion } from "../api/resources";
import type { ResourceNode, TrashItem } from "../api/types";
import { parentURI } from "../api/uri";

export function useTrash() {
  return useQuery({ queryKey: queryKeys.trash(), queryFn: ({ signal }) => listTrash(signal), refetchOnMount: "always" });
}

/**
 * useRestoreTrash puts an item back; then shows it (the caller's show, e.g.
 * the tree opening its folder) and answers the node it came back as.
 */
export function useRestoreTrash(show: (node: ResourceNode, from: TrashItem) => Promise<void>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (item: TrashItem) => {
      const node = await restoreTrash(item.id);
      await show(node, item);
      return node;
    },
    onSettled: () => void qc.invalidateQueries({ queryKey: queryKeys.trash() }),
  });
}

/** usePurgeTrash deletes one item for good, or (given null) empties the trash. */
export function usePurgeTrash() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: number | null) => {
      if (id === null) await emptyTrash();
      else await purgeTrash(id);
    },
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.trash() }),
  });
}

export function useVersions(uri: string) {
  return useQuery({ queryKey: queryKeys.versions(uri), queryFn: ({ signal }) => listVersions(uri, signal), refetchOnMount: "always" });
}

/** useRestoreVersion makes an earlier content of uri current again. */
export function useRestoreVersion(uri: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: number; version: number }) => restoreVersion(uri, v.id),
    // The preview and the row's size and badges follow the new content.
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: queryKeys.content(uri) }),
        qc.invalidateQueries({ queryKey: queryKeys.versions(uri) }),
        refreshFolders(qc, [parentURI(uri) ?? uri]),
      ]),
  });
}
