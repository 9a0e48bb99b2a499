// The search pane's status line and hits come from one response: between
// clicking Next and page 2 arriving, the DOM never shows "page 2" over page
// 1's hits (the flaky browser test of issue 18), and a response that arrives
// after a newer request was made is dropped even if its request ignored the
// abort.

import { act } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mountEach } from "../../testing/mount";
import type { SearchResult } from "../../api/agent";
import { FolderCommandDialog } from "./FolderCommandDialog";

const SCOPE = "kb://users/a/bulk/";

interface Call {
  query: string;
  cursor?: string;
  resolve: (r: SearchResult) => void;
}
const calls: Call[] = [];

vi.mock("../../api/agent", () => ({
  runLs: () => new Promise(() => {}),
  runRead: () => new Promise(() => {}),
  // Ignores the signal on purpose: a late response must still be dropped.
  runSearch: (_uri: string, query: string, cursor?: string) =>
    new Promise<SearchResult>((resolve) => calls.push({ query, cursor, resolve })),
}));

function result(query: string, files: number, complete: boolean, tag: string): SearchResult {
  return {
    uri: SCOPE,
    query,
    hits: Array.from({ length: files }, (_, i) => ({ uri: `${SCOPE}${tag}-${i}.md`, offset: 0, snippet: `${tag} ${i}` })),
    scanned: files,
    matched_files: files,
    next_offset: complete ? null : `cursor-after-${tag}`,
    complete,
    skipped_no_text: 0,
  };
}

const flush = () => act(async () => new Promise((r) => setTimeout(r, 0)));

describe("FolderCommandDialog search", () => {
  const page = mountEach();
  beforeEach(() => {
    calls.length = 0;
    act(() =>
      page.root.render(
        <FolderCommandDialog scope={SCOPE} display={(u) => u} onClose={() => {}} onOpenPreview={() => {}} initialTab="search" />,
      ),
    );
  });
  // One test turns the act environment off to watch the DOM between renders.
  afterEach(() => {
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  });

  const status = () => page.host.querySelector('[data-testid="search-status"]')?.textContent ?? null;
  const hits = () => [...page.host.querySelectorAll(".hit-snippet")].map((e) => e.textContent);
  const button = (name: string) => [...page.host.querySelectorAll("button")].find((b) => b.textContent?.trim() === name)!;

  async function submit(query: string) {
    const input = page.host.querySelector<HTMLInputElement>('input[aria-label="Search text"]')!;
    await act(async () => {
      const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!;
      set.call(input, query);
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await act(async () => button("Search").click());
  }

  it("never labels page 1's hits as page 2, not even for one frame", async () => {
    await submit("needle");
    await act(async () => calls[0]!.resolve(result("needle", 40, false, "p1")));
    expect(status()).toMatch(/more available · 40 hits on page 1/);

    // What a browser paints right after the click, before any effect's
    // follow-up render: observed outside act, as Playwright sees the DOM.
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
    const seen: string[] = [];
    const record = () => {
      const s = status();
      if (s !== null) seen.push(s);
    };
    const observer = new MutationObserver(record);
    observer.observe(page.host, { subtree: true, childList: true, characterData: true });
    button("Next").click();
    record();
    await new Promise((r) => setTimeout(r, 0));
    record();
    expect(calls).toHaveLength(2);
    expect(calls[1]!.cursor).toBe("cursor-after-p1");
    calls[1]!.resolve(result("needle", 20, true, "p2"));
    // React renders the answer on its own schedule, which a loaded machine
    // can push past one macrotask; the observer records every frame meanwhile.
    await vi.waitFor(() => expect(status()).toMatch(/page 2/), { timeout: 5000 });
    record();
    observer.disconnect();
    for (const s of seen) {
      if (/page 2/.test(s)) expect(s).toMatch(/search complete · 20 hits on page 2/);
    }
    expect(status()).toMatch(/search complete · 20 hits on page 2/);
    expect(hits()[0]).toBe("p2 0");
  });

  it("drops a response that arrives after a newer search was made", async () => {
    await submit("first");
    await submit("second");
    expect(calls.map((c) => c.query)).toEqual(["first", "second"]);
    // Resolved out of order: the newer one first, then the stale one.
    await act(async () => calls[1]!.resolve(result("second", 3, true, "second")));
    await act(async () => calls[0]!.resolve(result("first", 7, false, "first")));
    await flush();
    expect(status()).toMatch(/search complete · 3 hits on page 1/);
    expect(hits()).toEqual(["second 0", "second 1", "second 2"]);
  });

  it("a double click on Next asks for page 2 once, not page 3 with page 2's cursor", async () => {
    await submit("needle");
    await act(async () => calls[0]!.resolve(result("needle", 40, false, "p1")));
    await act(async () => {
      button("Next").click();
      button("Next")?.click();
    });
    expect(calls).toHaveLength(2);
    await act(async () => calls[1]!.resolve(result("needle", 40, false, "p2")));
    expect(status()).toMatch(/on page 2/);
  });
});
