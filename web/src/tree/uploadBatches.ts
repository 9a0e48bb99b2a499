// How an upload is cut into requests, and which file a request is sending.

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

/** inFlight is the file a batch is sending when loaded of its bytes have gone. */
export function inFlight(batch: readonly File[], loaded: number): File | undefined {
  let end = 0;
  for (const f of batch) {
    end += f.size;
    if (loaded < end) return f;
  }
  return batch[batch.length - 1];
}

/** bytesOf is the files' total size. */
export function bytesOf(files: readonly File[]): number {
  return files.reduce((s, f) => s + f.size, 0);
}
