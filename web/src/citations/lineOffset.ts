// A cited line becomes the code point offset the preview opens at: the
// content API pages by code points, not lines.

import { readContent } from "../api/resources";

/**
 * lineStart is the code point offset in text where line `line` (1-based)
 * starts, counting `before` lines already seen on earlier pages; or the
 * number of line breaks text holds when the line is not in it.
 */
export function lineStart(text: string, line: number, before = 0): { offset: number } | { breaks: number } {
  let seen = before;
  if (line <= seen + 1) return { offset: 0 };
  let cp = 0;
  for (const ch of text) {
    cp++;
    if (ch === "\n") {
      seen++;
      if (seen + 1 === line) return { offset: cp };
    }
  }
  return { breaks: seen - before };
}

type Reader = typeof readContent;

/** MAX_PAGES bounds the walk through a huge file; past it the file opens at its start. */
const MAX_PAGES = 40;

/** lineOffset finds where line starts in the file at uri; 0 when the file is shorter or unreadable. */
export async function lineOffset(uri: string, line: number, read: Reader = readContent, signal?: AbortSignal): Promise<number> {
  if (line <= 1) return 0;
  let offset = 0;
  let lines = 0;
  for (let i = 0; i < MAX_PAGES; i++) {
    let page;
    try {
      page = await read(uri, offset, undefined, signal);
    } catch {
      return 0;
    }
    const r = lineStart(page.text, line, lines);
    if ("offset" in r) return page.offset + r.offset;
    lines += r.breaks;
    if (page.next_offset === null || page.next_offset === undefined) return 0;
    offset = Number(page.next_offset);
  }
  return 0;
}
