// Skills (issue 16): the list, one skill, and the writes. Saving or deleting
// one refetches everything that lists skills, /options included: its
// compile_defaults.skills feed the compile form's picker.

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { QueryClient } from "@tanstack/react-query";
import { queryKeys } from "../api/queryKeys";
import { createSkill, deleteSkill, generateSkill, getSkill, listSkills, previewPrompt, updateSkill } from "../api/skills";
import type { Skill, SkillInput } from "../api/skills";

function refreshSkills(qc: QueryClient): Promise<unknown> {
  return Promise.all([qc.invalidateQueries({ queryKey: queryKeys.agentOptions() }), qc.invalidateQueries({ queryKey: queryKeys.skills() })]);
}

export function useSkills() {
  return useQuery({ queryKey: queryKeys.skills(), queryFn: ({ signal }) => listSkills(signal) });
}

/** useSkill reads one skill afresh (null: none asked for). */
export function useSkill(id: string | null) {
  return useQuery({ queryKey: queryKeys.skill(id), queryFn: ({ signal }) => getSkill(id!, signal), enabled: id !== null, staleTime: 0 });
}

/** useSaveSkill creates a skill, or updates the one id names. */
export function useSaveSkill() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: SkillInput }) => (id ? updateSkill(id, input) : createSkill(input)),
    onSuccess: (s: Skill) => {
      qc.setQueryData(queryKeys.skill(s.id), s);
      void refreshSkills(qc);
    },
  });
}

export function useDeleteSkill() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteSkill(id),
    onSuccess: () => refreshSkills(qc),
  });
}

// Asking a model for a draft and asking for a prompt preview store nothing;
// they are mutations for their one-at-a-time, asked-for nature.

export function useGenerateSkill() {
  return useMutation({
    mutationFn: ({ signal, ...req }: { description: string; model_id: string; sample_uri?: string; signal: AbortSignal }) => generateSkill(req, signal),
  });
}

export function usePreviewPrompt() {
  return useMutation({ mutationFn: (req: Parameters<typeof previewPrompt>[0]) => previewPrompt(req) });
}
