// Resolving taken names during an upload. The server commits a request all
// or nothing and names only the first conflicting file (409 exists, with
// error.existing), so a conflict takes that file out of the request, asks the
// user about it, sends it alone as they chose, and sends the rest again.
// A file the server refuses for itself (a bad name, too large: error.file)
// is set aside the same way, with its reason, and the rest goes in.

import { ApiError } from "../api/client";
import { canonicalCode, hasCode } from "../api/errorCodes";
import type { OnConflict } from "../api/resources";
import type { ResourceNode } from "../api/types";
import { relativePath } from "./uploadPaths";

export type ConflictChoice = "replace" | "rename" | "cancel";

export interface ConflictAnswer {
  choice: ConflictChoice;
  /** use the same choice for every later conflict of this upload without asking */
  applyToAll: boolean;
}

export interface ConflictQuestion {
  /** the name of the file being uploaded */
  name: string;
  /** the node that holds the name now */
  existing: ResourceNode;
  /** whether other files of the upload are still to go (offer "apply to all") */
  more: boolean;
}

/** FailedFile is a file the server refused, and why; the rest of its upload went in. */
export interface FailedFile {
  path: string;
  message: string;
}

/** ConflictSession carries the answers given so far within one upload. */
export interface ConflictSession {
  all?: ConflictChoice;
  skipped: string[];
  failed: FailedFile[];
}

export type SendFiles = (files: File[], mode: OnConflict) => Promise<unknown>;
export type AskConflict = (q: ConflictQuestion) => Promise<ConflictAnswer>;

/** existingOf returns the node of a 409 already_exists answer, or null for any other error. */
export function existingOf(err: unknown): ResourceNode | null {
  if (!(err instanceof ApiError) || !hasCode(err, "already_exists") || err.status !== 409) return null;
  const ex = err.details.existing;
  if (!ex || typeof ex !== "object") return null;
  const node = ex as Partial<ResourceNode>;
  return typeof node.name === "string" && typeof node.uri === "string" ? (node as ResourceNode) : null;
}

// The server stores names in NFC; the browser hands over what the disk had.
function sameName(a: string, b: string): boolean {
  return a === b || a.normalize("NFC") === b.normalize("NFC");
}

// A taken name may be deep in a folder upload: the file is the one whose
// path ends the existing node's URI.
function takenBy(f: File, existing: ResourceNode): boolean {
  const path = relativePath(f).normalize("NFC");
  const uri = existing.uri.normalize("NFC").replace(/\/$/, "");
  return path.includes("/") ? uri.endsWith("/" + path) : sameName(path, existing.name);
}

// Codes the server gives a single file, never the request as a whole.
const FILE_ERRORS = new Set(["invalid_name", "path_in_name", "file_too_large", "duplicate_name", "not_a_folder", "already_exists"]);

/**
 * refusedFile returns the index of the file a per-file refusal names, or -1.
 * A taken name that comes with the node holding it is a conflict to ask
 * about, not a refusal, though it shares already_exists with one.
 */
function refusedFile(err: unknown, files: readonly File[]): number {
  if (!(err instanceof ApiError) || !FILE_ERRORS.has(canonicalCode(err.code)) || existingOf(err)) return -1;
  const name = err.details.file;
  if (typeof name !== "string") return -1;
  return files.findIndex((f) => sameName(relativePath(f), name));
}

/**
 * sendResolving uploads one batch, asking about each taken name. moreAfter
 * says whether files of later batches follow (for "apply to all"). It throws
 * what send throws, except the conflicts it resolved.
 */
export async function sendResolving(
  batch: readonly File[],
  send: SendFiles,
  ask: AskConflict,
  session: ConflictSession,
  moreAfter = false,
): Promise<void> {
  let rest = [...batch];
  while (rest.length > 0) {
    const mode: OnConflict = session.all === "replace" || session.all === "rename" ? session.all : "fail";
    try {
      await send(rest, mode);
      return;
    } catch (err) {
      const bad = refusedFile(err, rest);
      if (bad >= 0) {
        session.failed.push({ path: relativePath(rest[bad] as File), message: err instanceof Error ? err.message : String(err) });
        rest = [...rest.slice(0, bad), ...rest.slice(bad + 1)];
        continue;
      }
      const existing = existingOf(err);
      const i = existing ? rest.findIndex((f) => takenBy(f, existing)) : -1;
      if (!existing || mode !== "fail" || i < 0) throw err;
      const file = rest[i] as File;
      rest = [...rest.slice(0, i), ...rest.slice(i + 1)];
      let choice = session.all;
      if (choice === undefined) {
        const answer = await ask({ name: relativePath(file), existing, more: rest.length > 0 || moreAfter });
        choice = answer.choice;
        if (answer.applyToAll) session.all = choice;
      }
      if (choice === "cancel") {
        session.skipped.push(relativePath(file));
      } else if (session.all === choice) {
        // The rest goes with the same mode: one request instead of two.
        rest = [file, ...rest];
      } else {
        await sendResolving([file], send, ask, { ...session, all: choice }, false);
      }
    }
  }
}
