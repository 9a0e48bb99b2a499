// The server's upload limits, applied before sending. The server answers a
// request over its cap with 413 before reading the body, and a browser may
// then report only a network error for the whole request: a file too large
// must be set aside, named, before it is sent.

import i18n from "../i18n";
import type { UploadLimits } from "../api/agent";
import { formatBytes } from "../ui/format";
import type { FailedFile } from "./uploadConflicts";
import { relativePath } from "./uploadPaths";

// The multipart framing of each part: boundary, headers, the path.
const PART_OVERHEAD = 1024;

/** setAsideTooLarge splits files into those the server may take and those over its per-file limit. */
export function setAsideTooLarge(files: readonly File[], limits?: UploadLimits): { send: File[]; failed: FailedFile[] } {
  const max = limits?.max_file_bytes ?? 0;
  if (max <= 0) return { send: [...files], failed: [] };
  const send: File[] = [];
  const failed: FailedFile[] = [];
  for (const f of files) {
    if (f.size > max) {
      failed.push({ path: relativePath(f), message: i18n.t("tree:upload.tooLarge", { limit: formatBytes(max), size: formatBytes(f.size) }) });
    } else {
      send.push(f);
    }
  }
  return { send, failed };
}

/** batchBounds narrows the client's own batch bounds to the server's caps. */
export function batchBounds(files: number, bytes: number, limits?: UploadLimits): { files: number; bytes: number } {
  if (!limits) return { files, bytes };
  const outFiles = limits.max_files > 0 ? Math.min(files, limits.max_files) : files;
  const cap = limits.max_request_bytes - PART_OVERHEAD * outFiles;
  return { files: outFiles, bytes: limits.max_request_bytes > 0 ? Math.max(1, Math.min(bytes, cap)) : bytes };
}
