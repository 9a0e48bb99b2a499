// The user's personal API tokens and the writes that issue and revoke them.

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { queryKeys } from "../api/queryKeys";
import { createToken, listTokens, revokeToken } from "./api";
import type { TokenScope } from "./api";

export function useMyTokens() {
  return useQuery({ queryKey: queryKeys.myTokens(), queryFn: ({ signal }) => listTokens(signal), refetchOnMount: "always" });
}

/** useIssueToken creates a token; its answer carries the secret, shown once. */
export function useIssueToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (t: { name: string; days: number; scope?: TokenScope }) => createToken(t.name, t.days, t.scope),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.myTokens() }),
  });
}

export function useRevokeToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => revokeToken(id),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.myTokens() }),
  });
}
