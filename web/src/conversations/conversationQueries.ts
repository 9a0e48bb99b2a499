// Stored conversations: the lists and the writes that rename and delete one.

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { deleteConversation, listConversations, renameConversation } from "../api/conversations";
import { queryKeys } from "../api/queryKeys";

/** useConversations lists the folder's (scope null: every folder's) conversations matching q, newest first. */
export function useConversations(scope: string | null, q: string) {
  return useQuery({
    queryKey: queryKeys.conversationList(scope ?? "", q),
    queryFn: ({ signal }) => listConversations({ uri: scope ?? undefined, q: q || undefined, limit: 50 }, signal),
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
