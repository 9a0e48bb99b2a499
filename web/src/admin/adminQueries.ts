// The Admin page's server state: accounts, every user's tokens and jobs, the
// overview, and the writes on them. A write reloads its list whether it
// worked or not: the server says what is true now.

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { listUsers } from "../api/groups";
import { queryKeys } from "../api/queryKeys";
import type { Role } from "../api/types";
import { cancelAnyJob, createUser, fetchOverview, listAllJobs, listAllTokens, revokeAnyToken, updateUser } from "./api";

/**
 * useAdminUsers is the account list the Users, Jobs and Groups sections
 * share; fresh refetches it whenever a section showing it opens.
 */
export function useAdminUsers({ fresh = false } = {}) {
  return useQuery({ queryKey: queryKeys.adminUsers(), queryFn: ({ signal }) => listUsers(signal), refetchOnMount: fresh ? "always" : true });
}

export function useCreateUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (u: { username: string; password: string; role: Role }) => createUser(u.username, u.password, u.role),
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.adminUsers() }),
  });
}

/** useUpdateUser changes any of an account's password, role and disabled. */
export function useUpdateUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...change }: { id: number; password?: string; role?: Role; disabled?: boolean }) => updateUser(id, change),
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.adminUsers() }),
  });
}

export function useAdminTokens() {
  return useQuery({ queryKey: queryKeys.adminTokens(), queryFn: ({ signal }) => listAllTokens(signal), refetchOnMount: "always" });
}

export function useRevokeAnyToken() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => revokeAnyToken(id),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.adminTokens() }),
  });
}

export function useAdminJobs(state: string, userID: number) {
  return useQuery({
    queryKey: queryKeys.adminJobList(state, userID),
    queryFn: ({ signal }) => listAllJobs({ state, user_id: userID }, signal),
    refetchOnMount: "always",
  });
}

export function useCancelAnyJob() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => cancelAnyJob(id),
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.adminJobs() }),
  });
}

export function useOverview() {
  return useQuery({ queryKey: queryKeys.adminOverview(), queryFn: ({ signal }) => fetchOverview(signal), refetchOnMount: "always" });
}
