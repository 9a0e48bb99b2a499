// Upload jobs of the tree: multipart requests per drop or pick, with progress;
// a taken name waits for the user's answer in the conflict dialog.

import i18n from "../i18n";
import { useCallback, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { ApiError } from "../api/client";
import { importArchive, uploadFiles } from "../api/resources";
import { JOBS_KEY } from "./JobWatch";
import { childURI } from "../api/uri";
import { messageOf } from "../ui/errors";
import { refreshFolders } from "./useFolderListings";
import { sendResolving } from "./uploadConflicts";
import type { ConflictAnswer, ConflictQuestion, ConflictSession } from "./uploadConflicts";

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

/** PendingConflict is a question waiting for the conflict dialog. */
export interface PendingConflict extends ConflictQuestion {
  jobID: number;
  answer: (a: ConflictAnswer) => void;
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
      const total = files.reduce((s, f) => s + f.size, 0);
      const label = files.length === 1 ? (files[0]?.name ?? "") : i18n.t("tree:upload.files", { count: files.length });
      let aborted = false;
      let abortCurrent = () => {};
      let cancelQuestion = () => {};
      const abort = () => {
        aborted = true;
        abortCurrent();
        cancelQuestion();
      };
      setJobs((js) => [...js, { id, folder, label, loaded: 0, total, state: "uploading", abort }]);
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
        const session: ConflictSession = { skipped: [] };
        const batches = uploadBatches(files);
        try {
          for (const [bi, batch] of batches.entries()) {
            await sendResolving(
              batch,
              (part, mode) => {
                if (aborted) throw new UploadCancelled();
                const handle = uploadFiles(
                  folder,
                  part,
                  (p) => patch(id, { loaded: Math.min(total, done + p.loaded) }),
                  mode,
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
          if (skipped === files.length) {
            patch(id, { state: "cancelled", loaded: 0 });
          } else {
            patch(id, { state: "done", loaded: total, note: skipped > 0 ? i18n.t("tree:upload.skipped", { count: skipped }) : undefined });
          }
          // A new version of an open file: its preview must not show the old text.
          for (const f of files) {
            const uri = childURI(folder, f.name, "file");
            void qc.invalidateQueries({ queryKey: ["content", uri] });
            void qc.invalidateQueries({ queryKey: ["versions", uri] });
          }
          await refreshFolders(qc, [folder]);
          setTimeout(() => dismiss(id), DONE_LINGER_MS);
        } catch (err) {
          const cancelled = aborted || err instanceof UploadCancelled || (err instanceof ApiError && err.code === "aborted");
          patch(id, cancelled ? { state: "cancelled", error: undefined } : { state: "error", error: messageOf(err) });
          // Earlier batches may have landed.
          await refreshFolders(qc, [folder]);
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
      setJobs((js) => [...js, { id, folder, label: file.name, loaded: 0, total: file.size, state: "uploading", abort: handle.abort }]);
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
