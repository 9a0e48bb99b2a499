// The compile form's server state: the files it picks from, a folder's
// "keep compiled" setting, and the writes that start jobs or change that setting.

import { useMutation, useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import { compileFiles, deleteAutoCompile, getAutoCompile, saveAutoCompile } from "../../api/agent";
import type { AutoCompileRequest, CompileRequest, CompileResponse } from "../../api/agent";
import { noteSubmittedJobs } from "../../api/jobQueries";
import { refreshFolders } from "../../api/listingQueries";
import { queryKeys } from "../../api/queryKeys";
import { listAtLeast } from "../../api/resources";
import { parentURI } from "../../api/uri";
import { messageOf } from "../../ui/errors";
import { ApiError } from "../../api/client";

/** how many children of the folder the form loads to pick from */
const PICK_LIMIT = 1000;

/** useCompileSourceList lists the children of each folder the compile form picks from, in order. */
export function useCompileSourceList(folders: readonly string[]) {
  return useQueries({
    queries: folders.map((folder) => ({
      queryKey: queryKeys.compileSources(folder),
      queryFn: ({ signal }: { signal: AbortSignal }) => listAtLeast(folder, PICK_LIMIT, signal),
    })),
  });
}

/** useAutoCompile reads the folder's saved choices; null when it is not kept compiled. */
export function useAutoCompile(folder: string) {
  return useQuery({
    queryKey: queryKeys.autoCompile(folder),
    queryFn: ({ signal }) => getAutoCompile(folder, signal),
  });
}

/** CompileBatch is one request per folder: the server compiles files of one folder at a time. */
export interface CompileBatch {
  folder: string;
  req: CompileRequest;
}

/**
 * useStartCompile queues a compile job per file, one request per folder.
 * A folder whose request fails has its files listed as not enqueued, with
 * the reason; only when every request fails does the whole start fail.
 */
export function useStartCompile() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (batches: readonly CompileBatch[]): Promise<CompileResponse> => {
      const answers = await Promise.allSettled(batches.map((b) => compileFiles(b.req)));
      const failed = answers.filter((a) => a.status === "rejected");
      if (failed.length === answers.length && failed[0]) throw failed[0].reason;
      const out: CompileResponse = { jobs: [], rejected: [] };
      answers.forEach((a, i) => {
        if (a.status === "fulfilled") {
          out.jobs.push(...a.value.jobs);
          out.rejected.push(...a.value.rejected);
          return;
        }
        const code = a.reason instanceof ApiError ? a.reason.code : "compile_failed";
        for (const uri of batches[i]!.req.uris ?? []) out.rejected.push({ uri, code, message: messageOf(a.reason) });
      });
      return out;
    },
    // The watcher starts polling the new jobs (the tree's badges and wiki/
    // follow them) and their rows show "queued".
    onSuccess: (res, batches) => {
      noteSubmittedJobs(qc, res.jobs);
      void refreshFolders(qc, [...new Set(batches.map((b) => b.folder))]);
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
