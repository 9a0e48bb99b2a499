// Resource tree endpoints: listing, folders, upload, rename, delete, content, raw.

import {
  ApiError,
  apiURL,
  authHeaders,
  errorFromBody,
  reportUnauthorized,
  request,
  requestJSON,
} from "./client";
import type { ContentPage, FileVersion, Listing, ResourceNode, TrashItem, UploadResponse } from "./types";

/** LIST_PAGE_SIZE is how many children one listing request asks for. */
export const LIST_PAGE_SIZE = 200;
/** CONTENT_PAGE_SIZE is how many code points one preview page asks for. */
export const CONTENT_PAGE_SIZE = 6000;

/**
 * listResources fetches one page of a folder's direct children: the first
 * without a cursor, the next with the previous page's next_cursor. A cursor
 * names the last child seen, so a page never shifts when the folder changes
 * between requests, and the server's cost does not grow with the page's depth.
 */
export function listResources(
  uri: string,
  cursor?: string,
  limit = LIST_PAGE_SIZE,
  signal?: AbortSignal,
): Promise<Listing> {
  return requestJSON<Listing>("/resources", { query: { uri, cursor, limit }, signal });
}

/**
 * listAtLeast fetches pages of a folder from the start until at least `want`
 * items are loaded or the folder ends, so a refresh keeps what was scrolled in.
 */
export async function listAtLeast(
  uri: string,
  want: number,
  signal?: AbortSignal,
  pageSize = LIST_PAGE_SIZE,
): Promise<Listing> {
  const items: ResourceNode[] = [];
  let cursor: string | undefined;
  let last: Listing | null = null;
  for (;;) {
    last = await listResources(uri, cursor, pageSize, signal);
    items.push(...last.items);
    const next = last.next_cursor ?? null;
    // Guard against a server that answers the same cursor again.
    if (next === null || next === cursor) return { uri: last.uri, items, next_cursor: null, access: last.access };
    cursor = next;
    if (items.length >= Math.max(want, 1)) return { uri: last.uri, items, next_cursor: cursor, access: last.access };
  }
}

/** createFolder creates a folder; uri must end with "/". */
export function createFolder(uri: string): Promise<ResourceNode> {
  return requestJSON<ResourceNode>("/resources/folders", { method: "POST", json: { uri } });
}

/** renameResource moves or renames a node. */
export function renameResource(uri: string, newURI: string): Promise<ResourceNode> {
  return requestJSON<ResourceNode>("/resources", { method: "PATCH", json: { uri, new_uri: newURI } });
}

/**
 * copyToEdit copies a file into the nearest folder above it that compile did
 * not make, as "<name> (copy)<ext>": an ordinary file the user may change,
 * which is how a generated one is edited.
 */
export function copyToEdit(uri: string): Promise<ResourceNode> {
  return requestJSON<ResourceNode>("/resources/copy", { method: "POST", json: { uri } });
}

/** deleteResource moves a node (a folder with everything below it) to the trash. */
export async function deleteResource(uri: string): Promise<void> {
  await request("/resources", { method: "DELETE", query: { uri } });
}

/** listVersions lists a file's uploaded contents, newest (the current one) first. */
export async function listVersions(uri: string, signal?: AbortSignal): Promise<FileVersion[]> {
  const res = await requestJSON<{ items: FileVersion[] | null }>("/resources/versions", { query: { uri }, signal });
  return res.items ?? [];
}

/** restoreVersion makes an earlier content current again, as a new version. */
export function restoreVersion(uri: string, versionID: number): Promise<ResourceNode> {
  return requestJSON<ResourceNode>("/resources/versions/restore", { method: "POST", json: { uri, version_id: versionID } });
}

/** listTrash lists the caller's deleted items, kept until they expire. */
export async function listTrash(signal?: AbortSignal): Promise<TrashItem[]> {
  const res = await requestJSON<{ items: TrashItem[] | null }>("/trash", { signal });
  return res.items ?? [];
}

/** restoreTrash puts a deleted item back (under a new name when its place is taken). */
export function restoreTrash(id: number): Promise<ResourceNode> {
  return requestJSON<ResourceNode>("/trash/restore", { method: "POST", json: { id } });
}

/** purgeTrash deletes one trash item for good. */
export async function purgeTrash(id: number): Promise<void> {
  await request(`/trash/${id}`, { method: "DELETE" });
}

/** emptyTrash deletes every trash item for good and says how many went. */
export async function emptyTrash(): Promise<number> {
  const res = await requestJSON<{ purged: number }>("/trash", { method: "DELETE" });
  return res?.purged ?? 0;
}

/** readContent fetches one page of a file's text body; offsets count code points. */
export function readContent(
  uri: string,
  offset = 0,
  limit = CONTENT_PAGE_SIZE,
  signal?: AbortSignal,
): Promise<ContentPage> {
  return requestJSON<ContentPage>("/resources/content", { query: { uri, offset, limit }, signal });
}

/** fetchRaw downloads a file's bytes (the bearer header rules out a plain link). */
export async function fetchRaw(uri: string, signal?: AbortSignal): Promise<Blob> {
  const res = await request("/resources/raw", { query: { uri }, signal });
  return res.blob();
}

/** fetchPageImage fetches one page (from 1) of a PDF drawn as a PNG. */
export async function fetchPageImage(uri: string, page: number, signal?: AbortSignal): Promise<Blob> {
  const res = await request("/resources/page-image", { query: { uri, page: String(page) }, signal });
  return res.blob();
}

/** OnConflict is what an upload does with a taken name; fail answers 409 exists. */
export type OnConflict = "fail" | "replace" | "rename";

export interface UploadProgress {
  loaded: number;
  total: number;
}

export interface UploadHandle<T = UploadResponse> {
  promise: Promise<T>;
  abort: () => void;
}

/**
 * uploadFiles sends files to a folder in one multipart request (field "file").
 * pathOf names each part: a path with folders ("a/b.md") makes the server
 * create them (parents=true); it refuses such a name otherwise.
 */
export function uploadFiles(
  folderURI: string,
  files: readonly File[],
  onProgress?: (p: UploadProgress) => void,
  onConflict: OnConflict = "fail",
  pathOf: (f: File) => string = (f) => f.name,
): UploadHandle {
  const form = new FormData();
  let parents = false;
  for (const f of files) {
    const path = pathOf(f);
    parents ||= path.includes("/");
    form.append("file", f, path);
  }
  return postForm<UploadResponse>(
    apiURL("/resources/upload", { uri: folderURI, on_conflict: onConflict, parents: parents ? "true" : undefined }),
    form,
    onProgress,
    { items: [] },
  );
}

/**
 * postForm sends a multipart form, reporting progress through
 * XMLHttpRequest's upload events, which fetch lacks; an unreadable success
 * body answers empty.
 */
function postForm<T>(url: string, form: FormData, onProgress: ((p: UploadProgress) => void) | undefined, empty: T): UploadHandle<T> {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<T>((resolve, reject) => {
    xhr.open("POST", url);
    for (const [k, v] of Object.entries(authHeaders())) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e: ProgressEvent) => {
      if (e.lengthComputable) onProgress?.({ loaded: e.loaded, total: e.total });
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(JSON.parse(xhr.responseText) as T);
        } catch {
          resolve(empty);
        }
        return;
      }
      const err = errorFromBody(xhr.status, xhr.statusText, xhr.responseText);
      if (xhr.status === 401) reportUnauthorized(err);
      reject(err);
    };
    xhr.onerror = () => reject(new ApiError(0, "network_error", "Upload failed: cannot reach the server."));
    xhr.onabort = () => reject(new ApiError(0, "aborted", "Upload cancelled."));
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}

/** ARCHIVE_EXTENSIONS are the files POST /resources/import unpacks into a folder. */
export const ARCHIVE_EXTENSIONS = [".zip", ".tar", ".tar.gz", ".tgz"] as const;

/** isArchiveName tells whether a file can be imported as a folder. */
export function isArchiveName(name: string): boolean {
  const lower = name.toLowerCase();
  return ARCHIVE_EXTENSIONS.some((ext) => lower.endsWith(ext) && lower.length > ext.length);
}

/** importArchive sends one archive; the server answers with the queued import job. */
export function importArchive(folderURI: string, file: File, onProgress?: (p: UploadProgress) => void): UploadHandle<{ job: { id: number; uri: string } }> {
  const form = new FormData();
  form.append("file", file, file.name);
  return postForm(apiURL("/resources/import", { uri: folderURI }), form, onProgress, { job: { id: 0, uri: "" } });
}
