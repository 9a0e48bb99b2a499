// The audit log as pages the screens load one after another.

import { useInfiniteQuery } from "@tanstack/react-query";
import { queryKeys } from "../api/queryKeys";
import { listAudit, listOwnAudit } from "./auditApi";
import type { AuditFilter } from "./auditApi";

const paging = {
  initialPageParam: undefined as string | undefined,
  getNextPageParam: (last: { next_cursor: string | null }) => last.next_cursor ?? undefined,
  refetchOnMount: "always" as const,
};

export function useAdminAudit(f: AuditFilter) {
  return useInfiniteQuery({
    queryKey: queryKeys.adminAudit(f.userID, f.action, f.from, f.to),
    queryFn: ({ pageParam, signal }) => listAudit(f, pageParam, signal),
    ...paging,
  });
}

export function useOwnAudit() {
  return useInfiniteQuery({
    queryKey: queryKeys.myAudit(),
    queryFn: ({ pageParam, signal }) => listOwnAudit(pageParam, signal),
    ...paging,
  });
}
