// Who has access to a node, and the writes that grant, change and end it.

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { queryKeys } from "../api/queryKeys";
import { createShare, deleteShare, listShares, updateShare } from "../api/sharing";
import type { Grantee } from "../api/sharing";
import type { ShareRole } from "../api/types";

export function useShares(uri: string) {
  return useQuery({ queryKey: queryKeys.shares(uri), queryFn: ({ signal }) => listShares(uri, signal), refetchOnMount: "always" });
}

export type ShareChange =
  | { kind: "grant"; grantee: Grantee; role: ShareRole }
  | { kind: "role"; shareID: number; role: ShareRole }
  | { kind: "end"; shareID: number };

/**
 * useChangeShare grants, changes or ends a share on uri; the list reloads
 * whether it worked or not, since the server says who has access.
 */
export function useChangeShare(uri: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (c: ShareChange): Promise<unknown> => {
      switch (c.kind) {
        case "grant":
          return createShare(uri, c.grantee, c.role);
        case "role":
          return updateShare(c.shareID, c.role);
        case "end":
          return deleteShare(c.shareID);
      }
    },
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.shares(uri) }),
  });
}
