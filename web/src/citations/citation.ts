// kb:// citations in answers: where they are in a text, what they point at,
// and whether the reader may follow them. Pure, so the rules are unit-tested.

import { isWithin } from "../api/uri";

/** Citation is a kb:// URI an answer names, with the line range it cites. */
export interface Citation {
  /** the URI as resolved against the user's root (kb://me/ expanded) */
  uri: string;
  /** first cited line, 1-based */
  line?: number;
  /** last cited line of a range */
  endLine?: number;
}

// A URI ends at white space, quotes, brackets or angle brackets; trailing
// sentence punctuation is trimmed afterwards (see trimTrailing).
const KB_RE = /kb:\/\/[^\s"'<>()[\]{}`]*/g;
const LINE_RE = /#L(\d+)(?:-L?(\d+))?$/;

function trimTrailing(s: string): string {
  return s.replace(/[.,;:!?*_]+$/, "");
}

/** Segment is a run of plain text or one kb:// URI as written. */
export type Segment = { kind: "text"; text: string } | { kind: "uri"; text: string };

/** splitURIs cuts text into plain runs and kb:// URIs, in order. */
export function splitURIs(text: string): Segment[] {
  const out: Segment[] = [];
  let at = 0;
  for (const m of text.matchAll(KB_RE)) {
    const raw = trimTrailing(m[0]);
    const start = m.index ?? 0;
    if (raw.length <= "kb://".length) continue;
    if (start > at) out.push({ kind: "text", text: text.slice(at, start) });
    out.push({ kind: "uri", text: raw });
    at = start + raw.length;
  }
  if (at < text.length) out.push({ kind: "text", text: text.slice(at) });
  return out;
}

/**
 * parseCitation reads one written URI: kb://me/ stands for the user's root
 * (the agent shows it so), and #L<n> or #L<a>-L<b> names lines. Null when
 * it is not a kb:// URI at all.
 */
export function parseCitation(written: string, root: string): Citation | null {
  let s = written.trim();
  if (!s.startsWith("kb://")) return null;
  let line: number | undefined;
  let endLine: number | undefined;
  const m = LINE_RE.exec(s);
  if (m) {
    line = Number(m[1]);
    if (m[2]) endLine = Number(m[2]);
    s = s.slice(0, m.index);
  }
  const hash = s.indexOf("#");
  if (hash >= 0) s = s.slice(0, hash);
  if (s.startsWith("kb://me/")) s = root + s.slice("kb://me/".length);
  else if (s === "kb://me") s = root;
  const c: Citation = { uri: s };
  if (line !== undefined && line > 0) {
    c.line = line;
    if (endLine !== undefined && endLine >= line) c.endLine = endLine;
  }
  return c;
}

/**
 * followable reports whether the reader may open a cited URI: it must lie in
 * the conversation's folder (what the agent could read). A URI elsewhere
 * is shown as plain text, never as a link that would fail or leak a path.
 */
export function followable(c: Citation, scope: string): boolean {
  return isWithin(c.uri, scope) && !c.uri.includes("/../") && !c.uri.endsWith("/..");
}
