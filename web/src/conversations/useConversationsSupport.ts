import { useQuery } from "@tanstack/react-query";
import { conversationsUnsupported, listConversations } from "../api/conversations";
import { queryKeys } from "../api/queryKeys";

/**
 * useConversationsSupport asks once whether the server stores conversations:
 * a 404 (an older server) or "stored": false (config store: false) keeps
 * history in the page only, as before. Until the answer, nothing is stored.
 */
export function useConversationsSupport(): boolean {
  const q = useQuery({
    queryKey: queryKeys.conversationsSupport(),
    queryFn: async ({ signal }) => {
      try {
        const page = await listConversations({ limit: 1 }, signal);
        return page.stored !== false;
      } catch (err) {
        if (conversationsUnsupported(err)) return false;
        throw err;
      }
    },
    staleTime: Infinity,
    retry: false,
  });
  return q.data === true;
}
