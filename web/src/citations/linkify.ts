// A rehype step for chat answers: a bare kb:// URI in the text, or one alone
// in inline code, becomes a link like a Markdown [..](kb://..) link, so the
// link component (CitationLink) handles all three the same way.

import { splitURIs } from "./citation";

interface HText {
  type: "text";
  value: string;
}
interface HElement {
  type: "element";
  tagName: string;
  properties?: Record<string, unknown>;
  children: HNode[];
}
type HNode = HText | HElement | { type: string; children?: HNode[] };

function link(href: string, children: HNode[]): HElement {
  return { type: "element", tagName: "a", properties: { href }, children };
}

function soleURI(el: HElement): string | null {
  if (el.children.length !== 1) return null;
  const only = el.children[0] as HText;
  if (only.type !== "text") return null;
  const segs = splitURIs(only.value.trim());
  return segs.length === 1 && segs[0]!.kind === "uri" ? segs[0]!.text : null;
}

function walk(parent: { children?: HNode[] }): void {
  const kids = parent.children;
  if (!kids) return;
  const next: HNode[] = [];
  for (const node of kids) {
    if (node.type === "text") {
      const segs = splitURIs((node as HText).value);
      if (segs.some((s) => s.kind === "uri")) {
        for (const s of segs) next.push(s.kind === "uri" ? link(s.text, [{ type: "text", value: s.text }]) : { type: "text", value: s.text });
        continue;
      }
      next.push(node);
      continue;
    }
    if (node.type === "element") {
      const el = node as HElement;
      // Code blocks stay verbatim and links are links already.
      if (el.tagName === "pre" || el.tagName === "a") {
        next.push(el);
        continue;
      }
      if (el.tagName === "code") {
        const uri = soleURI(el);
        next.push(uri ? link(uri, [el]) : el);
        continue;
      }
    }
    walk(node as { children?: HNode[] });
    next.push(node);
  }
  parent.children = next;
}

/** rehypeKbLinks is the plugin: `rehypePlugins={[rehypeKbLinks]}`. */
export function rehypeKbLinks() {
  return (tree: { children?: HNode[] }) => {
    walk(tree);
  };
}
