// Marks find hits on the rendered page with the CSS Custom Highlight API, so
// any view (markdown, code, CSV, plain text) is highlighted without changing
// how it renders. The server's hit offsets are in the source text; the
// rendered text differs (markdown syntax is gone), so hits are matched by
// their order among the query's occurrences on the page.

/** matchRanges finds every case-insensitive occurrence of query in root's text. */
export function matchRanges(root: Node, query: string): Range[] {
  const q = query.toLowerCase();
  if (!q) return [];
  const ranges: Range[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = (n.nodeValue ?? "").toLowerCase();
    for (let i = text.indexOf(q); i >= 0; i = text.indexOf(q, i + q.length)) {
      const r = document.createRange();
      r.setStart(n, i);
      r.setEnd(n, i + q.length);
      ranges.push(r);
    }
  }
  return ranges;
}

interface HighlightRegistry {
  set(name: string, h: unknown): void;
  delete(name: string): void;
}

function registry(): { reg: HighlightRegistry; make: (...r: Range[]) => unknown } | null {
  const css = (globalThis as { CSS?: { highlights?: HighlightRegistry } }).CSS;
  const H = (globalThis as { Highlight?: new (...r: Range[]) => unknown }).Highlight;
  if (!css?.highlights || !H) return null;
  return { reg: css.highlights, make: (...r) => new H(...r) };
}

/**
 * paintHits highlights the occurrences of query in root and, distinctly, the
 * one at index current (or none); it returns how many there are and the
 * current range, to scroll to.
 */
export function paintHits(root: Node, query: string, current: number): { count: number; currentRange: Range | null } {
  const ranges = matchRanges(root, query);
  const cur = current >= 0 && current < ranges.length ? ranges[current]! : null;
  const r = registry();
  if (r) {
    r.reg.set("find-hit", r.make(...ranges.filter((x) => x !== cur)));
    if (cur) r.reg.set("find-current", r.make(cur));
    else r.reg.delete("find-current");
  }
  return { count: ranges.length, currentRange: cur };
}

export function clearHits(): void {
  const r = registry();
  r?.reg.delete("find-hit");
  r?.reg.delete("find-current");
}
