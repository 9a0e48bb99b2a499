// Upload jobs of the tree: multipart requests per drop or pick, with progress;
// a taken name waits for the user's answer in the conflict dialog.

import i18n from "../i18n";
import { useCallback, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { agentOptionsQuery } from "../api/agentOptions";
import type { UploadLimits } from "../api/agent";
import { ApiError } from "../api/client";
import { importArchive, uploadFiles } from "../api/resources";
import { JOBS_KEY } from "./JobWatch";
import { childURI } from "../api/uri";
import { messageOf } from "../ui/errors";
import { refreshFolders } from "./useFolderListings";
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

let nextID = 1;
/** UPLOAD_BATCH_FILES stays well under the server's limit of files per request. */
export const UPLOAD_BATCH_FILES = 100;
/** UPLOAD_BATCH_BYTES keeps one request's size moderate when many files are dropped. */
export const UPLOAD_BATCH_BYTES = 64 << 20;

/** uploadBatches splits files into requests by count and size; a big file goes alone. */
export function uploadBatches(files: readonly File[], maxFiles = UPLOAD_BATCH_FILES, maxBytes = UPLOAD_BATCH_BYTES): File[][] {
  const out: File[][] = [];
  let cur: File[] = [];
  let bytes = 0;
  for (const f of files) {
    if (cur.length > 0 && (cur.length >= maxFiles || bytes + f.size > maxBytes)) {
      out.push(cur);
      cur = [];
      bytes = 0;
    }
    cur.push(f);
    bytes += f.size;
  }
  if (cur.length > 0) out.push(cur);
  return out;
}
const DONE_LINGER_MS = 2500;

/** inFlight is the file a batch is sending when loaded of its bytes have gone. */
export function inFlight(batch: readonly File[], loaded: number): File | undefined {
  let end = 0;
  for (const f of batch) {
    end += f.size;
    if (loaded < end) return f;
  }
  return batch[batch.length - 1];
}

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

/** PendingConflict is a question waiting for the conflict dialog. */
export interface PendingConflict extends ConflictQuestion {
  jobID: number;
  answer: (a: ConflictAnswer) => void;
}

// The limits come with the agent options most pages have loaded already;
// an upload goes ahead without them rather than wait on a failing request.
async function uploadLimits(qc: ReturnType<typeof useQueryClient>): Promise<UploadLimits | undefined> {
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

export function useUploads() {
  const qc = useQueryClient();
  const [jobs, setJobs] = useState<UploadJob[]>([]);
  const [conflicts, setConflicts] = useState<PendingConflict[]>([]);

  const patch = useCallback((id: number, p: Partial<UploadJob>) => {
    setJobs((js) => js.map((j) => (j.id === id ? { ...j, ...p } : j)));
  }, []);
  const dismiss = useCallback((id: number) => setJobs((js) => js.filter((j) => j.id !== id)), []);

  const start = useCallback(
    (folder: string, files: readonly File[]) => {
      if (files.length === 0) return;
      const id = nextID++;
      let total = files.reduce((s, f) => s + f.size, 0);
      const label = labelOf(files);
      let aborted = false;
      let abortCurrent = () => {};
      let cancelQuestion = () => {};
      const abort = () => {
        aborted = true;
        abortCurrent();
        cancelQuestion();
      };
      setJobs((js) => [...js, { id, folder, label, loaded: 0, total, state: "uploading", files: files.length, failed: [], abort }]);
      const ask = (q: ConflictQuestion) =>
        new Promise<ConflictAnswer>((resolve) => {
          patch(id, { state: "asking" });
          const settle = (a: ConflictAnswer) => {
            cancelQuestion = () => {};
            setConflicts((cs) => cs.filter((c) => c.answer !== settle));
            patch(id, { state: "uploading" });
            resolve(a);
          };
          cancelQuestion = () => settle({ choice: "cancel", applyToAll: true });
          setConflicts((cs) => [...cs, { ...q, jobID: id, answer: settle }]);
        });
      void (async () => {
        let done = 0;
        const limits = await uploadLimits(qc);
        const { send, failed: tooLarge } = setAsideTooLarge(files, limits);
        if (tooLarge.length > 0) {
          // Progress counts what is sent: a file set aside never arrives.
          total = send.reduce((s, f) => s + f.size, 0);
          patch(id, { total });
        }
        const session: ConflictSession = { skipped: [], failed: tooLarge };
        const bounds = batchBounds(UPLOAD_BATCH_FILES, UPLOAD_BATCH_BYTES, limits);
        const batches = uploadBatches(send, bounds.files, bounds.bytes);
        try {
          for (const [bi, batch] of batches.entries()) {
            await sendResolving(
              batch,
              (part, mode) => {
                if (aborted) throw new UploadCancelled();
                patch(id, { current: part.length === 1 ? relativePath(part[0] as File) : undefined });
                const handle = uploadFiles(
                  folder,
                  part,
                  (p) => {
                    // The request's bytes include the multipart framing: scale to the files'.
                    const bytes = part.reduce((s, f) => s + f.size, 0);
                    const sent = p.total > 0 ? (p.loaded / p.total) * bytes : 0;
                    const cur = inFlight(part, sent);
                    patch(id, { loaded: Math.min(total, done + sent), current: cur ? relativePath(cur) : undefined });
                  },
                  mode,
                  relativePath,
                );
                abortCurrent = handle.abort;
                return handle.promise;
              },
              ask,
              session,
              bi < batches.length - 1,
            );
            if (aborted) throw new UploadCancelled();
            done += batch.reduce((s, f) => s + f.size, 0);
            patch(id, { loaded: done });
          }
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
            patch(id, { state: "done", loaded: total, current: undefined, failed, note: notes.length > 0 ? notes.join(", ") : undefined });
          }
          // A new version of an open file: its preview must not show the old text.
          for (const f of files) {
            const uri = childURI(folder, relativePath(f), "file");
            void qc.invalidateQueries({ queryKey: ["content", uri] });
            void qc.invalidateQueries({ queryKey: ["versions", uri] });
          }
          await refreshFolders(qc, foldersOf(folder, files));
          // What failed stays until the user has read it.
          if (failed.length === 0) setTimeout(() => dismiss(id), DONE_LINGER_MS);
        } catch (err) {
          const cancelled = aborted || err instanceof UploadCancelled || (err instanceof ApiError && err.code === "aborted");
          patch(id, cancelled ? { state: "cancelled", error: undefined, current: undefined } : { state: "error", error: messageOf(err), current: undefined, failed: session.failed });
          // Earlier batches may have landed.
          await refreshFolders(qc, foldersOf(folder, files));
        }
      })();
    },
    [qc, patch, dismiss],
  );

  // An archive imported as a folder: the upload is tracked here, the
  // unpacking by the server's import job in the task center.
  const startImport = useCallback(
    (folder: string, file: File) => {
      const id = nextID++;
      const handle = importArchive(folder, file, (p) => patch(id, { loaded: Math.min(file.size, p.loaded) }));
      setJobs((js) => [...js, { id, folder, label: file.name, loaded: 0, total: file.size, state: "uploading", files: 1, failed: [], abort: handle.abort }]);
      void handle.promise.then(
        () => {
          patch(id, { state: "done", loaded: file.size, note: i18n.t("tree:archive.started", { name: file.name }) });
          void qc.invalidateQueries({ queryKey: JOBS_KEY });
          setTimeout(() => dismiss(id), DONE_LINGER_MS);
        },
        (err: unknown) => {
          const cancelled = err instanceof ApiError && err.code === "aborted";
          patch(id, cancelled ? { state: "cancelled" } : { state: "error", error: messageOf(err) });
        },
      );
    },
    [qc, patch, dismiss],
  );

  return { jobs, start, startImport, dismiss, conflict: conflicts[0] ?? null };
}
