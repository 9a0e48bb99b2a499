// Stored conversations: the lists and the writes that rename and delete one.

import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { deleteConversation, listConversations, renameConversation } from "../api/conversations";
import { queryKeys } from "../api/queryKeys";

/** PAGE_SIZE is how many conversations one page of the list loads. */
const PAGE_SIZE = 50;

/** ANSWERING_POLL_MS is how often a list with an answer being written looks again. */
const ANSWERING_POLL_MS = 3000;

/**
 * useConversations pages through the folder's (scope null: every folder's)
 * conversations matching q, most recently active first.
 */
export function useConversations(scope: string | null, q: string) {
  return useInfiniteQuery({
    queryKey: queryKeys.conversationList(scope ?? "", q),
    queryFn: ({ pageParam, signal }) =>
      listConversations({ uri: scope ?? undefined, q: q || undefined, cursor: pageParam, limit: PAGE_SIZE }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    // While an answer is being written (here or in another tab) the list
    // looks again, so its "answering…" mark goes when the answer ends.
    refetchInterval: (q) => (q.state.data?.pages.some((p) => p.items.some((c) => c.answering_message_id)) ? ANSWERING_POLL_MS : false),
  });
}

export function useRenameConversation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, title }: { id: number; title: string }) => renameConversation(id, title),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.conversations() }),
  });
}

/** useDeleteConversation deletes one; the lists reload whether it worked or not. */
export function useDeleteConversation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteConversation(id),
    onSettled: () => void qc.invalidateQueries({ queryKey: queryKeys.conversations() }),
  });
}
