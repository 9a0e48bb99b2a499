// Upload jobs of the tree: one multipart request per drop or pick, with progress.

import { useCallback, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { uploadFiles } from "../api/resources";
import { childURI } from "../api/uri";
import { messageOf } from "../ui/errors";
import { refreshFolders } from "./useFolderListings";

export interface UploadJob {
  id: number;
  folder: string;
  label: string;
  loaded: number;
  total: number;
  state: "uploading" | "done" | "error";
  error?: string;
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

export function useUploads() {
  const qc = useQueryClient();
  const [jobs, setJobs] = useState<UploadJob[]>([]);

  const patch = useCallback((id: number, p: Partial<UploadJob>) => {
    setJobs((js) => js.map((j) => (j.id === id ? { ...j, ...p } : j)));
  }, []);
  const dismiss = useCallback((id: number) => setJobs((js) => js.filter((j) => j.id !== id)), []);

  const start = useCallback(
    (folder: string, files: readonly File[]) => {
      if (files.length === 0) return;
      const id = nextID++;
      const total = files.reduce((s, f) => s + f.size, 0);
      const label = files.length === 1 ? (files[0]?.name ?? "") : `${files.length} files`;
      let aborted = false;
      let abortCurrent = () => {};
      const abort = () => {
        aborted = true;
        abortCurrent();
      };
      setJobs((js) => [...js, { id, folder, label, loaded: 0, total, state: "uploading", abort }]);
      void (async () => {
        let done = 0;
        try {
          for (const batch of uploadBatches(files)) {
            if (aborted) throw new Error("Upload cancelled.");
            const handle = uploadFiles(folder, batch, (p) => patch(id, { loaded: done + p.loaded, total: Math.max(total, done + p.total) }));
            abortCurrent = handle.abort;
            await handle.promise;
            done += batch.reduce((s, f) => s + f.size, 0);
            patch(id, { loaded: done });
          }
          patch(id, { state: "done", loaded: total });
          // A new version of an open file: its preview must not show the old text.
          for (const f of files) void qc.invalidateQueries({ queryKey: ["content", childURI(folder, f.name, "file")] });
          await refreshFolders(qc, [folder]);
          setTimeout(() => dismiss(id), DONE_LINGER_MS);
        } catch (err) {
          patch(id, { state: "error", error: messageOf(err) });
          // Earlier batches may have landed.
          await refreshFolders(qc, [folder]);
        }
      })();
    },
    [qc, patch, dismiss],
  );

  return { jobs, start, dismiss };
}
