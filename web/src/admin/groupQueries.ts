// The groups (admin) and the writes on them. Every change reloads the list:
// it is small, and the server says who is in what.

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { addMember, createGroup, deleteGroup, listGroups, removeMember, renameGroup } from "../api/groups";
import { queryKeys } from "../api/queryKeys";

export function useGroups() {
  return useQuery({ queryKey: queryKeys.adminGroups(), queryFn: ({ signal }) => listGroups(signal), refetchOnMount: "always" });
}

export type GroupChange =
  | { kind: "create"; name: string }
  | { kind: "rename"; id: number; name: string }
  | { kind: "delete"; id: number }
  | { kind: "add"; id: number; userID: number }
  | { kind: "remove"; id: number; userID: number };

export function useChangeGroup() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (c: GroupChange): Promise<unknown> => {
      switch (c.kind) {
        case "create":
          return createGroup(c.name);
        case "rename":
          return renameGroup(c.id, c.name);
        case "delete":
          return deleteGroup(c.id);
        case "add":
          return addMember(c.id, c.userID);
        case "remove":
          return removeMember(c.id, c.userID);
      }
    },
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.adminGroups() }),
  });
}
