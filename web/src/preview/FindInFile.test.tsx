// Opened at a search hit, find in file reads the file's hits page by page
// (GET /search on the file) until it reaches that hit, and starts there.

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mountEach } from "../testing/mount";
import { FindInFile } from "./FindInFile";
import type { FindState } from "./FindInFile";

const FILE = "kb://users/a/log.txt";
const hits = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => ({ uri: FILE, line: from + i + 1, offset: (from + i) * 100, snippet: "«err»" }));

describe("FindInFile opened at a hit", () => {
  const page = mountEach();
  let urls: URL[];
  let states: (FindState | null)[];
  beforeEach(() => {
    urls = [];
    states = [];
    vi.stubGlobal("fetch", async (input: string) => {
      const url = new URL(input, "http://localhost");
      urls.push(url);
      const second = url.searchParams.has("cursor");
      const body = {
        uri: FILE, query: "err", kind: "content", mode: "scan", scanned: 1, matched_files: 1, skipped_no_text: 0,
        items: second ? hits(40, 40) : hits(0, 40),
        next_cursor: second ? "s1.p3" : "s1.p2",
        complete: false,
      };
      return new Response(JSON.stringify(body), { status: 200 });
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it("pages to the hit and counts honestly", async () => {
    await page.renderAsync(<FindInFile uri={FILE} start={{ query: "err", offset: 4200 }} onFind={(f) => states.push(f)} />);
    await vi.waitFor(() => expect(states.at(-1)).toBeTruthy());
    expect(urls.map((u) => [u.pathname, u.searchParams.get("uri"), u.searchParams.get("q"), u.searchParams.get("kind"), u.searchParams.get("cursor")])).toEqual([
      ["/api/v1/search", FILE, "err", "content", null],
      ["/api/v1/search", FILE, "err", "content", "s1.p2"],
    ]);
    const f = states.at(-1)!;
    expect(f.hits[f.current]!.offset).toBe(4200);
    expect(page.host.querySelector('[data-testid="find-count"]')!.textContent).toBe("Hit 43 of 80+ (more to search)");
    expect(page.host.querySelector<HTMLInputElement>('input[aria-label="Find in this file"]')!.value).toBe("err");
  });
});
