// The admin's models and the writes on them. A write reloads the list and
// the chat's model options: a model added is offered at once.

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { queryKeys } from "../api/queryKeys";
import { createAdminModel, deleteAdminModel, listAdminModels, updateAdminModel, useEmbeddingModel } from "./modelApi";
import type { AdminModelInput } from "./modelApi";

export function useAdminModels() {
  return useQuery({ queryKey: queryKeys.adminModels(), queryFn: ({ signal }) => listAdminModels(signal), refetchOnMount: "always" });
}

export type ModelChange =
  | { kind: "create"; input: AdminModelInput }
  | { kind: "update"; id: string; input: AdminModelInput }
  | { kind: "delete"; id: string }
  | { kind: "use-embedding"; id: string };

export function useChangeModel() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (c: ModelChange): Promise<unknown> => {
      switch (c.kind) {
        case "create":
          return createAdminModel(c.input);
        case "update":
          return updateAdminModel(c.id, c.input);
        case "delete":
          return deleteAdminModel(c.id);
        case "use-embedding":
          return useEmbeddingModel(c.id);
      }
    },
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: queryKeys.adminModels() });
      void qc.invalidateQueries({ queryKey: queryKeys.agentOptions() });
    },
  });
}
