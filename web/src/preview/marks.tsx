// Find hits drawn as <mark> elements by the views themselves (a rehype step
// for markdown and code, a split for plain text and CSV cells), so React
// owns them: nothing rewrites the DOM behind its back. Matching ignores case,
// as the server's search does.

import type { ReactNode } from "react";

/** MARK_CLASS is the class of every hit's <mark>; the current one also gets CURRENT_CLASS. */
export const MARK_CLASS = "find-hit";
export const CURRENT_CLASS = "find-current";

function matcher(query: string): RegExp | null {
  if (!query) return null;
  return new RegExp(query.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "giu");
}

/** splitMatches cuts text into runs, the occurrences of query marked. */
export function splitMatches(text: string, query: string): { text: string; mark: boolean }[] {
  const re = matcher(query);
  if (!re) return [{ text, mark: false }];
  const out: { text: string; mark: boolean }[] = [];
  let at = 0;
  for (const m of text.matchAll(re)) {
    const i = m.index ?? 0;
    if (i > at) out.push({ text: text.slice(at, i), mark: false });
    out.push({ text: m[0], mark: true });
    at = i + m[0].length;
  }
  if (at < text.length || out.length === 0) out.push({ text: text.slice(at), mark: false });
  return out;
}

/** markText is text with the occurrences of query (if any) in <mark>. */
export function markText(text: string, query: string | undefined): ReactNode {
  if (!query) return text;
  const parts = splitMatches(text, query);
  if (parts.length === 1 && !parts[0]!.mark) return text;
  return parts.map((p, i) =>
    p.mark ? (
      <mark key={i} className={MARK_CLASS}>
        {p.text}
      </mark>
    ) : (
      p.text
    ),
  );
}

interface HNode {
  type: string;
  value?: string;
  tagName?: string;
  properties?: Record<string, unknown>;
  children?: HNode[];
}

function walk(node: HNode, query: string): void {
  if (!node.children) return;
  const next: HNode[] = [];
  for (const child of node.children) {
    if (child.type === "text" && child.value) {
      for (const p of splitMatches(child.value, query)) {
        next.push(
          p.mark
            ? { type: "element", tagName: "mark", properties: { className: [MARK_CLASS] }, children: [{ type: "text", value: p.text }] }
            : { type: "text", value: p.text },
        );
      }
    } else {
      if (child.type === "element" || child.type === "root") walk(child, query);
      next.push(child);
    }
  }
  node.children = next;
}

/** rehypeMarks is a rehype step marking the occurrences of options.query in the text. */
export function rehypeMarks(options: { query: string }) {
  return (tree: HNode) => {
    if (options.query) walk(tree, options.query);
  };
}
