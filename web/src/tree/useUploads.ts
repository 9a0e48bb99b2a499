// Upload jobs of the tree: multipart requests per drop or pick, with progress;
// a taken name waits for the user's answer in the conflict dialog. Each job
// is a mutation: what it changed is refetched when it ends, however it ends.

import i18n from "../i18n";
import { useCallback, useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { QueryClient } from "@tanstack/react-query";
import { agentOptionsQuery } from "../api/agentOptions";
import type { UploadLimits } from "../api/agent";
import { ApiError } from "../api/client";
import { refreshFolders } from "../api/listingQueries";
import { queryKeys } from "../api/queryKeys";
import { importArchive, uploadFiles } from "../api/resources";
import { childURI } from "../api/uri";
import { messageOf } from "../ui/errors";
import { UPLOAD_BATCH_BYTES, UPLOAD_BATCH_FILES, bytesOf, inFlight, uploadBatches } from "./uploadBatches";
import { sendResolving } from "./uploadConflicts";
import type { ConflictAnswer, ConflictQuestion, ConflictSession, FailedFile } from "./uploadConflicts";
import { batchBounds, setAsideTooLarge } from "./uploadLimits";
import { relativePath, topFolders } from "./uploadPaths";

export interface UploadJob {
  id: number;
  folder: string;
  label: string;
  loaded: number;
  total: number;
  /** cancelled: the user stopped it, or cancelled every taken name it had */
  state: "uploading" | "asking" | "done" | "error" | "cancelled";
  error?: string;
  /** e.g. "1 skipped": files left out because their name was taken */
  note?: string;
  /** how many files the upload holds, and the one in flight (path below the folder) */
  files: number;
  current?: string;
  /** files the server refused, with why; the rest went in */
  failed: FailedFile[];
  abort: () => void;
}

/** PendingConflict is a question waiting for the conflict dialog. */
export interface PendingConflict extends ConflictQuestion {
  jobID: number;
  answer: (a: ConflictAnswer) => void;
}

/** A run is one job's request state: the user may stop it between and during requests. */
interface Run {
  id: number;
  folder: string;
  files: readonly File[];
  /** what progress counts: the files' bytes, less the files set aside */
  total: number;
  session: ConflictSession;
  aborted: boolean;
  abortRequest: () => void;
  cancelQuestion: () => void;
}

let nextID = 1;
const DONE_LINGER_MS = 2500;

// foldersOf lists the target and every folder an upload put files in, to refresh their listings.
function foldersOf(folder: string, files: readonly File[]): string[] {
  const out = new Set([folder]);
  for (const f of files) {
    const p = relativePath(f);
    const i = p.lastIndexOf("/");
    if (i > 0) out.add(childURI(folder, p.slice(0, i), "dir"));
  }
  return [...out];
}

function labelOf(files: readonly File[]): string {
  const tops = topFolders(files);
  if (tops.length === 1 && files.every((f) => relativePath(f).startsWith(tops[0] + "/"))) {
    return i18n.t("tree:upload.folder", { name: tops[0], count: files.length });
  }
  return files.length === 1 ? relativePath(files[0] as File) : i18n.t("tree:upload.files", { count: files.length });
}

// The limits come with the agent options most pages have loaded already;
// an upload goes ahead without them rather than wait on a failing request.
async function uploadLimits(qc: QueryClient): Promise<UploadLimits | undefined> {
  try {
    const opts = await qc.fetchQuery(agentOptionsQuery());
    return opts.upload;
  } catch {
    return undefined;
  }
}

class UploadCancelled extends Error {
  constructor() {
    super(i18n.t("tree:upload.cancelledError"));
  }
}

const isCancel = (run: Run, err: unknown) => run.aborted || err instanceof UploadCancelled || (err instanceof ApiError && err.code === "aborted");

export function useUploads() {
  const qc = useQueryClient();
  const [jobs, setJobs] = useState<UploadJob[]>([]);
  const [conflicts, setConflicts] = useState<PendingConflict[]>([]);

  const patch = useCallback((id: number, p: Partial<UploadJob>) => {
    setJobs((js) => js.map((j) => (j.id === id ? { ...j, ...p } : j)));
  }, []);
  const dismiss = useCallback((id: number) => setJobs((js) => js.filter((j) => j.id !== id)), []);

  /** begin shows a new job and returns its run, which abort stops. */
  const begin = (folder: string, files: readonly File[], label: string): Run => {
    const run: Run = {
      id: nextID++,
      folder,
      files,
      total: bytesOf(files),
      session: { skipped: [], failed: [] },
      aborted: false,
      abortRequest: () => {},
      cancelQuestion: () => {},
    };
    const abort = () => {
      run.aborted = true;
      run.abortRequest();
      run.cancelQuestion();
    };
    setJobs((js) => [...js, { id: run.id, folder, label, loaded: 0, total: run.total, state: "uploading", files: files.length, failed: [], abort }]);
    return run;
  };

  const ask = (run: Run) => (q: ConflictQuestion) =>
    new Promise<ConflictAnswer>((resolve) => {
      patch(run.id, { state: "asking" });
      const settle = (a: ConflictAnswer) => {
        run.cancelQuestion = () => {};
        setConflicts((cs) => cs.filter((c) => c.answer !== settle));
        patch(run.id, { state: "uploading" });
        resolve(a);
      };
      run.cancelQuestion = () => settle({ choice: "cancel", applyToAll: true });
      setConflicts((cs) => [...cs, { ...q, jobID: run.id, answer: settle }]);
    });

  /** send uploads a run's files batch by batch, asking about taken names. */
  async function send(run: Run): Promise<void> {
    const { id, folder } = run;
    let done = 0;
    const limits = await uploadLimits(qc);
    const { send: sendable, failed: tooLarge } = setAsideTooLarge(run.files, limits);
    run.session.failed.push(...tooLarge);
    if (tooLarge.length > 0) {
      // Progress counts what is sent: a file set aside never arrives.
      run.total = bytesOf(sendable);
      patch(id, { total: run.total });
    }
    const bounds = batchBounds(UPLOAD_BATCH_FILES, UPLOAD_BATCH_BYTES, limits);
    const batches = uploadBatches(sendable, bounds.files, bounds.bytes);
    for (const [bi, batch] of batches.entries()) {
      await sendResolving(
        batch,
        (part, mode) => {
          if (run.aborted) throw new UploadCancelled();
          patch(id, { current: part.length === 1 ? relativePath(part[0] as File) : undefined });
          const handle = uploadFiles(
            folder,
            part,
            (p) => {
              // The request's bytes include the multipart framing: scale to the files'.
              const sent = p.total > 0 ? (p.loaded / p.total) * bytesOf(part) : 0;
              const cur = inFlight(part, sent);
              patch(id, { loaded: Math.min(run.total, done + sent), current: cur ? relativePath(cur) : undefined });
            },
            mode,
            relativePath,
          );
          run.abortRequest = handle.abort;
          return handle.promise;
        },
        ask(run),
        run.session,
        bi < batches.length - 1,
      );
      if (run.aborted) throw new UploadCancelled();
      done += bytesOf(batch);
      patch(id, { loaded: done });
    }
  }

  /** report says how a finished run went: skipped and refused files, or all of it. */
  function report(run: Run) {
    const { id, files, session } = run;
    const skipped = session.skipped.length;
    const failed = session.failed;
    const notes = [
      skipped > 0 ? i18n.t("tree:upload.skipped", { count: skipped }) : "",
      failed.length > 0 ? i18n.t("tree:upload.failedCount", { count: failed.length }) : "",
    ].filter(Boolean);
    if (skipped === files.length) {
      patch(id, { state: "cancelled", loaded: 0, current: undefined });
    } else if (skipped + failed.length === files.length) {
      patch(id, { state: "error", current: undefined, failed, error: files.length === 1 ? failed[0]?.message : undefined });
    } else {
      patch(id, { state: "done", loaded: run.total, current: undefined, failed, note: notes.length > 0 ? notes.join(", ") : undefined });
    }
  }

  const upload = useMutation({
    mutationFn: send,
    onSuccess: async (_, run) => {
      report(run);
      // A new version of an open file: its preview must not show the old text.
      for (const f of run.files) {
        const uri = childURI(run.folder, relativePath(f), "file");
        void qc.invalidateQueries({ queryKey: queryKeys.content(uri) });
        void qc.invalidateQueries({ queryKey: queryKeys.versions(uri) });
      }
      await refreshFolders(qc, foldersOf(run.folder, run.files));
      // What failed stays until the user has read it.
      if (run.session.failed.length === 0) setTimeout(() => dismiss(run.id), DONE_LINGER_MS);
    },
    onError: async (err, run) => {
      patch(
        run.id,
        isCancel(run, err)
          ? { state: "cancelled", error: undefined, current: undefined }
          : { state: "error", error: messageOf(err), current: undefined, failed: run.session.failed },
      );
      // Earlier batches may have landed.
      await refreshFolders(qc, foldersOf(run.folder, run.files));
    },
  });

  // An archive imported as a folder: the upload is tracked here, the
  // unpacking by the server's import job in the task center.
  const importing = useMutation({
    mutationFn: (run: Run) => {
      const file = run.files[0] as File;
      if (run.aborted) throw new ApiError(0, "aborted", i18n.t("tree:upload.cancelledError"));
      const handle = importArchive(run.folder, file, (p) => patch(run.id, { loaded: Math.min(file.size, p.loaded) }));
      run.abortRequest = handle.abort;
      return handle.promise;
    },
    onSuccess: (_, run) => {
      patch(run.id, { state: "done", loaded: run.total, note: i18n.t("tree:archive.started", { name: run.files[0]?.name }) });
      void qc.invalidateQueries({ queryKey: queryKeys.jobs() });
      setTimeout(() => dismiss(run.id), DONE_LINGER_MS);
    },
    onError: (err, run) => patch(run.id, isCancel(run, err) ? { state: "cancelled" } : { state: "error", error: messageOf(err) }),
  });

  const start = (folder: string, files: readonly File[]) => {
    if (files.length > 0) upload.mutate(begin(folder, files, labelOf(files)));
  };
  const startImport = (folder: string, file: File) => importing.mutate(begin(folder, [file], file.name));

  return { jobs, start, startImport, dismiss, conflict: conflicts[0] ?? null };
}
