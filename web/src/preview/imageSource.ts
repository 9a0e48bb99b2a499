// Which markdown images may display. A document (or a model told to by one)
// could otherwise put workspace text into an image URL on another host, and
// the browser would send it there just by rendering. So only images of the
// workspace itself display, fetched with the bearer token; every other
// source is shown as a link with its address, never fetched.

import { folderOf } from "../api/uri";

export type ImageSource =
  | { kind: "workspace"; uri: string }
  | { kind: "inline"; src: string }
  | { kind: "remote"; url: string };

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * classifyImage decides what to do with an image's src. base is the URI of
 * the document, against which relative paths resolve; without one (a chat
 * answer) only kb:// URIs count as the workspace.
 */
export function classifyImage(src: string | undefined, base?: string): ImageSource {
  const s = (src ?? "").trim();
  if (/^kb:\/\//i.test(s)) return { kind: "workspace", uri: decodePath(s) };
  if (/^data:image\/(png|gif|jpeg|webp|avif|bmp);/i.test(s)) return { kind: "inline", src: s };
  // Schemes, protocol-relative //host and root paths all leave the workspace.
  if (SCHEME.test(s) || s.startsWith("/") || s.startsWith("\\") || s === "" || base === undefined) {
    return { kind: "remote", url: s };
  }
  const uri = resolveRelative(base, s);
  return uri === null ? { kind: "remote", url: s } : { kind: "workspace", uri };
}

/** resolveRelative joins a relative path to the document's folder; null if it climbs out of the tree. */
export function resolveRelative(base: string, rel: string): string | null {
  const folder = folderOf(base);
  const m = /^(kb:\/\/(?:users\/[^/]+|me)\/)(.*)$/.exec(folder);
  if (!m) return null;
  const root = m[1] as string;
  const parts = (m[2] as string).split("/").filter((p) => p !== "");
  const path = rel.split(/[?#]/)[0] ?? "";
  for (const seg of path.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (parts.length === 0) return null;
      parts.pop();
      continue;
    }
    parts.push(safeDecode(seg));
  }
  return parts.length === 0 ? null : root + parts.join("/");
}

function decodePath(uri: string): string {
  return uri.split("/").map(safeDecode).join("/");
}

function safeDecode(seg: string): string {
  try {
    return decodeURIComponent(seg);
  } catch {
    return seg;
  }
}
