// The compile form's server state: the files it picks from, a folder's
// "keep compiled" setting, and the writes that start jobs or change that setting.

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { compileFiles, deleteAutoCompile, getAutoCompile, saveAutoCompile } from "../../api/agent";
import type { AutoCompileRequest, CompileRequest } from "../../api/agent";
import { noteSubmittedJobs } from "../../api/jobQueries";
import { refreshFolders } from "../../api/listingQueries";
import { queryKeys } from "../../api/queryKeys";
import { listAtLeast } from "../../api/resources";
import { parentURI } from "../../api/uri";

/** how many children of the folder the form loads to pick from */
const PICK_LIMIT = 1000;

/** useCompileSources lists the folder's children the compile form picks from. */
export function useCompileSources(folder: string) {
  return useQuery({
    queryKey: queryKeys.compileSources(folder),
    queryFn: ({ signal }) => listAtLeast(folder, PICK_LIMIT, signal),
  });
}

/** useAutoCompile reads the folder's saved choices; null when it is not kept compiled. */
export function useAutoCompile(folder: string) {
  return useQuery({
    queryKey: queryKeys.autoCompile(folder),
    queryFn: ({ signal }) => getAutoCompile(folder, signal),
  });
}

/** useStartCompile queues a compile job per file. */
export function useStartCompile(folder: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (req: CompileRequest) => compileFiles(req),
    // The watcher starts polling the new jobs (the tree's badges and wiki/
    // follow them) and their rows show "queued".
    onSuccess: (res) => {
      noteSubmittedJobs(qc, res.jobs);
      void refreshFolders(qc, [folder]);
    },
  });
}

/**
 * useKeepCompiled saves the folder's choices (req) or, given null, stops
 * keeping it compiled; then what shows the setting follows: the form and the
 * folder row's marker.
 */
export function useKeepCompiled(folder: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (req: AutoCompileRequest | null) => {
      if (req) await saveAutoCompile(req);
      else await deleteAutoCompile(folder);
    },
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: queryKeys.autoCompile(folder) });
      void refreshFolders(qc, [parentURI(folder) ?? folder]);
    },
  });
}
