// The tree's search box through the real network layer (fetch stubbed):
// debounce, abort of a stale request, names before content hits grouped by
// file, the combobox keys and aria-activedescendant, the count line and More;
// the mode each query asks for, and ranked answers shown best file first
// with their marked passages and the mode the server answered with.

import { act } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mountEach } from "../testing/mount";
import type { ContentHit, NameMatch, SearchResponse } from "../api/search";
import { TreeSearch } from "./TreeSearch";
import type { TreeSearchProps } from "./TreeSearch";
import { DEBOUNCE_MS } from "./useTreeSearch";

const SCOPE = "kb://users/a/";

interface Call {
  url: URL;
  signal: AbortSignal;
  answer: (body: Partial<SearchResponse>) => void;
}
const calls: Call[] = [];

function response(query: string, over: Partial<SearchResponse>): SearchResponse {
  return {
    uri: SCOPE, query, kind: "all", mode: "index", names: [], names_complete: true, items: [],
    scanned: 1, matched_files: 1, skipped_no_text: 0, next_cursor: null, complete: true, ...over,
  };
}

const hit = (file: string, line: number, snippet: string): ContentHit => ({ uri: SCOPE + file, line, offset: line * 10, snippet });
const name = (file: string): NameMatch => ({ uri: SCOPE + file, name: file.replace(/\/$/, "").split("/").pop()!, kind: file.endsWith("/") ? "dir" : "file" });

describe("TreeSearch", () => {
  const page = mountEach();
  let openedName: NameMatch[];
  let openedHit: [ContentHit, string | undefined][];

  beforeEach(() => {
    calls.length = 0;
    openedName = [];
    openedHit = [];
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    vi.stubGlobal("fetch", (input: string, init: RequestInit) => {
      const url = new URL(input, "http://localhost");
      return new Promise<Response>((resolve, reject) => {
        init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
        calls.push({
          url,
          signal: init.signal!,
          answer: (body) => resolve(new Response(JSON.stringify(response(url.searchParams.get("q")!, body)), { status: 200 })),
        });
      });
    });
    show();
  });
  function show(over: Partial<TreeSearchProps> = {}) {
    act(() =>
      page.root.render(
        <TreeSearch
          scope={SCOPE}
          scopeLabel="Home"
          onOpenName={(m) => openedName.push(m)}
          onOpenHit={(h, find) => openedHit.push([h, find])}
          {...over}
        />,
      ),
    );
  }
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  const box = () => page.host.querySelector<HTMLInputElement>('input[role="combobox"]')!;
  const count = () => page.host.querySelector('[data-testid="tree-search-count"]')!.textContent;
  const modeLabel = () => page.host.querySelector('[data-testid="tree-search-mode"]')?.textContent ?? null;
  const params = (i: number) => Object.fromEntries(calls[i]!.url.searchParams);
  const options = () => [...page.host.querySelectorAll<HTMLElement>('[role="option"]')];
  const key = (k: string, init: KeyboardEventInit = {}) =>
    act(() => box().dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true, ...init })));

  function type(text: string) {
    act(() => {
      box().focus();
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(box(), text);
      box().dispatchEvent(new Event("input", { bubbles: true }));
    });
  }
  const settle = () => act(async () => {});
  const wait = (ms: number) => act(() => vi.advanceTimersByTime(ms));

  it("sends one request after typing pauses, for the scope and the whole query", async () => {
    type("bu");
    type("bud");
    wait(DEBOUNCE_MS - 1);
    expect(calls).toHaveLength(0);
    expect(count()).toMatch(/Searching/);
    wait(1);
    expect(calls).toHaveLength(1);
    expect(params(0)).toEqual({ uri: SCOPE, q: "bud", kind: "all", mode: "literal" });
    expect(calls[0]!.url.pathname).toBe("/api/v1/search");
  });

  it("aborts a stale request and never shows its answer under the newer query", async () => {
    type("alpha");
    wait(DEBOUNCE_MS);
    type("beta");
    expect(calls[0]!.signal.aborted).toBe(true);
    // Even an answer that arrives regardless is not shown.
    calls[0]!.answer({ items: [hit("a.md", 1, "«alpha»")] });
    await settle();
    expect(options()).toHaveLength(0);
    expect(count()).toMatch(/Searching/);
    wait(DEBOUNCE_MS);
    calls[1]!.answer({ items: [hit("b.md", 2, "x «beta» y")] });
    await settle();
    expect(count()).toBe("1 hit in 1 file");
    expect(options().map((o) => o.textContent)).toEqual(["L2x beta y"]);
    expect(page.host.querySelector('[role="listbox"]')!.getAttribute("aria-label")).toBe("Results for beta");
  });

  it("lists names first, then hits grouped by file, and picks with the keyboard", async () => {
    type("plan");
    wait(DEBOUNCE_MS);
    calls[0]!.answer({
      names: [name("notes/plan.md"), name("plans/")],
      items: [hit("notes/plan.md", 3, "the «plan» is"), hit("x.md", 1, "«Plan» B"), hit("notes/plan.md", 9, "a «plan»")],
    });
    await settle();
    expect(count()).toBe("2 names · 3 hits in 2 files");
    const groups = [...page.host.querySelectorAll('[role="group"]')].map((g) => g.getAttribute("aria-label"));
    expect(groups).toEqual(["Names", "plan.md in notes/", "x.md"]);
    expect(options().map((o) => o.textContent)).toEqual(["plan.mdnotes/", "plans", "L3the plan is", "L9a plan", "L1Plan B"]);
    expect([...page.host.querySelectorAll(".tree-search-snippet mark")].map((m) => m.textContent)).toEqual(["plan", "plan", "Plan"]);

    const listbox = page.host.querySelector('[role="listbox"]')!;
    expect(box().getAttribute("aria-expanded")).toBe("true");
    expect(box().getAttribute("aria-controls")).toBe(listbox.id);
    expect(box().hasAttribute("aria-activedescendant")).toBe(false);
    key("ArrowDown");
    expect(box().getAttribute("aria-activedescendant")).toBe(options()[0]!.id);
    expect(options()[0]!.getAttribute("aria-selected")).toBe("true");
    key("ArrowUp");
    expect(box().getAttribute("aria-activedescendant")).toBe(options()[4]!.id);
    key("Enter");
    expect(openedHit).toEqual([[hit("x.md", 1, "«Plan» B"), "plan"]]);
    expect(box().getAttribute("aria-expanded")).toBe("false");
    expect(box().hasAttribute("aria-activedescendant")).toBe(false);

    key("ArrowDown"); // reopens
    key("ArrowDown");
    key("ArrowDown");
    key("Enter");
    expect(openedName.map((m) => m.uri)).toEqual([SCOPE + "plans/"]);
  });

  it("says when more is available and More appends the next page", async () => {
    type("log");
    wait(DEBOUNCE_MS);
    // A hit without a line number shows its snippet alone.
    calls[0]!.answer({ items: [hit("a.md", 1, "«log»"), { uri: SCOPE + "b.md", offset: 7, snippet: "«log»" }], complete: false, next_cursor: "s1.next" });
    await settle();
    expect(count()).toBe("2 hits so far · more available");
    expect(options().map((o) => o.textContent)).toEqual(["L1log", "log"]);
    const more = [...page.host.querySelectorAll("button")].find((b) => b.textContent === "More")!;
    act(() => more.click());
    expect(calls).toHaveLength(2);
    expect(calls[1]!.url.searchParams.get("cursor")).toBe("s1.next");
    expect(calls[1]!.url.searchParams.get("q")).toBe("log");
    calls[1]!.answer({ items: [hit("c.md", 4, "«log»")], complete: true, next_cursor: null, more_hits_in: [SCOPE + "c.md"] });
    await settle();
    expect(count()).toBe("3 hits in 3 files · 1 file has more than shown");
    expect([...page.host.querySelectorAll("button")].some((b) => b.textContent === "More")).toBe(false);
  });

  it("Escape closes the list, then clears the box; Ctrl+K focuses it from anywhere", async () => {
    type("zebra");
    wait(DEBOUNCE_MS);
    calls[0]!.answer({ items: [hit("z.md", 1, "«zebra»")] });
    await settle();
    expect(box().getAttribute("aria-expanded")).toBe("true");
    key("Escape");
    expect(box().getAttribute("aria-expanded")).toBe("false");
    key("Escape");
    expect(box().value).toBe("");

    box().blur();
    const other = document.createElement("button");
    document.body.append(other);
    other.focus();
    act(() => other.dispatchEvent(new KeyboardEvent("keydown", { key: "k", ctrlKey: true, bubbles: true, cancelable: true })));
    expect(document.activeElement).toBe(box());
    other.remove();
  });

  it("a single word is searched literally: its hits stay marked and the label says exact text", async () => {
    type("budget");
    wait(DEBOUNCE_MS);
    expect(params(0)).toMatchObject({ q: "budget", mode: "literal" });
    expect(modeLabel()).toBeNull();
    calls[0]!.answer({ mode: "index", items: [hit("a.md", 2, "the «budget» is «Budget»")] });
    await settle();
    expect(modeLabel()).toBe("Exact text");
    expect([...page.host.querySelectorAll(".tree-search-snippet mark")].map((m) => m.textContent)).toEqual(["budget", "Budget"]);
    // The status line, which a screen reader announces, says the mode too.
    expect(page.host.querySelector('[role="status"]')!.textContent).toBe("1 hit in 1 file · Exact text");
    key("Enter");
    expect(openedHit).toEqual([[hit("a.md", 2, "the «budget» is «Budget»"), "budget"]]);
  });

  it("with an embedding model on the server, several words ask for hybrid and say words and meaning", async () => {
    show({ multiWordMode: "hybrid" });
    type("where do quokkas rest");
    wait(DEBOUNCE_MS);
    expect(params(0)).toMatchObject({ q: "where do quokkas rest", mode: "hybrid" });
    calls[0]!.answer({ mode: "hybrid", ranked: true, matched_files: 1, scanned: 1, items: [hit("zoo/burrows.md", 4, "the quokkas nap in burrows by day")] });
    await settle();
    expect(modeLabel()).toBe("Words and meaning");
    expect(options().map((o) => o.textContent)).toEqual(["L4the quokkas nap in burrows by day"]);
  });

  it("several words ask for a ranked search and show files best first, each with its marked passages", async () => {
    type("  where do quokkas sleep ");
    wait(DEBOUNCE_MS);
    expect(params(0)).toEqual({ uri: SCOPE, q: "where do quokkas sleep", kind: "all", mode: "ranked" });
    calls[0]!.answer({
      mode: "ranked",
      ranked: true,
      matched_files: 2,
      scanned: 2,
      items: [
        hit("zoo/burrows.md", 4, "…the «quokkas» «sleep» in burrows"),
        hit("zoo/burrows.md", 9, "«Quokka» nests"),
        hit("a.md", 1, "«sleep» well"),
      ],
    });
    await settle();
    expect(modeLabel()).toBe("Ranked by relevance");
    expect(count()).toBe("2 matching files");
    const groups = [...page.host.querySelectorAll('[role="group"]')].map((g) => g.getAttribute("aria-label"));
    expect(groups).toEqual(["burrows.md in zoo/", "a.md"]);
    expect(options().map((o) => o.textContent)).toEqual(["L4…the quokkas sleep in burrows", "L9Quokka nests", "L1sleep well"]);
    expect([...options()[0]!.querySelectorAll("mark")].map((m) => m.textContent)).toEqual(["quokkas", "sleep"]);
    // The query is not in the file as typed: the file opens at the passage
    // with its first marked word to find.
    key("ArrowDown");
    key("Enter");
    expect(openedHit).toEqual([[hit("zoo/burrows.md", 4, "…the «quokkas» «sleep» in burrows"), "quokkas"]]);
  });

  it("a ranked file that matched by its name alone opens at its passage with nothing to find", async () => {
    type("quokka habits");
    wait(DEBOUNCE_MS);
    const lead = { uri: SCOPE + "quokka-habits.md", line: 1, offset: 0, snippet: "# Notes" };
    calls[0]!.answer({ mode: "ranked", ranked: true, matched_files: 1, items: [lead] });
    await settle();
    expect(options().map((o) => o.textContent)).toEqual(["L1# Notes"]);
    key("Enter");
    expect(openedHit).toEqual([[lead, undefined]]);
  });

  it("a quoted phrase is searched literally without its quotes", async () => {
    type("“quokka lanterns”");
    wait(DEBOUNCE_MS);
    expect(params(0)).toMatchObject({ q: "quokka lanterns", mode: "literal" });
    calls[0]!.answer({ mode: "scan", items: [hit("a.md", 3, "the «quokka lanterns» glow")] });
    await settle();
    expect(modeLabel()).toBe("Exact text");
    expect(count()).toBe("1 hit in 1 file");
    expect(page.host.querySelector('[role="listbox"]')!.getAttribute("aria-label")).toBe("Results for quokka lanterns");
    key("Enter");
    expect(openedHit).toEqual([[hit("a.md", 3, "the «quokka lanterns» glow"), "quokka lanterns"]]);
  });

  it("More continues a ranked search in ranked mode, and the count still counts every matching file", async () => {
    type("quokka sleep");
    wait(DEBOUNCE_MS);
    calls[0]!.answer({ mode: "ranked", ranked: true, matched_files: 12, items: [hit("a.md", 1, "«quokka»")], complete: false, next_cursor: "s1.r" });
    await settle();
    expect(count()).toBe("12 matching files · best 1 shown · more available");
    act(() => [...page.host.querySelectorAll("button")].find((b) => b.textContent === "More")!.click());
    expect(params(1)).toMatchObject({ q: "quokka sleep", mode: "ranked", cursor: "s1.r" });
    calls[1]!.answer({ mode: "ranked", ranked: true, matched_files: 12, items: [hit("b.md", 1, "«sleep»")], complete: true, next_cursor: null });
    await settle();
    expect(count()).toBe("12 matching files");
  });

  it("says what it could not rank yet, in its own words rather than the server's", async () => {
    type("quokka sleep");
    wait(DEBOUNCE_MS);
    const note = "1 file(s) are still being indexed (or too large for the word index) and were not ranked; mode \"literal\" reads them";
    calls[0]!.answer({ mode: "ranked", ranked: true, matched_files: 1, unranked_files: 1, items: [hit("a.md", 1, "«quokka»")], complete: false, next_cursor: null, note });
    await settle();
    expect(page.host.querySelector(".tree-search-note")!.textContent).toBe("1 file is still being indexed and was not ranked.");
  });

  it("marks a file compile made, in its heading and its group's name", async () => {
    type("plan");
    wait(DEBOUNCE_MS);
    calls[0]!.answer({ items: [hit("notes/plan.md", 3, "the «plan» is"), { ...hit("wiki/notes/plan.md", 1, "«plan» summary"), generated: true }] });
    await settle();
    const groups = [...page.host.querySelectorAll('[role="group"]')];
    expect(groups.map((g) => g.getAttribute("aria-label"))).toEqual(["plan.md in notes/", "plan.md in wiki/notes/ (generated)"]);
    expect(groups.map((g) => g.querySelector(".badge.generated")?.textContent ?? "")).toEqual(["", "generated"]);
  });

  it("draws a snippet's text as text, never as markup", async () => {
    type("img src");
    wait(DEBOUNCE_MS);
    calls[0]!.answer({ mode: "ranked", ranked: true, matched_files: 1, items: [hit("a.md", 1, '<«img» «src»=x onerror="alert(1)">')] });
    await settle();
    const snippet = page.host.querySelector(".tree-search-snippet")!;
    expect(snippet.querySelector("img")).toBeNull();
    expect(snippet.textContent).toBe('<img src=x onerror="alert(1)">');
    expect([...snippet.querySelectorAll("mark")].map((m) => m.textContent)).toEqual(["img", "src"]);
  });

  it("several words can run in the mode the caller prefers (hybrid once the server has an embedding model)", async () => {
    show({ multiWordMode: "hybrid" });
    type("where do quokkas sleep");
    wait(DEBOUNCE_MS);
    expect(params(0)).toMatchObject({ mode: "hybrid" });
    type("quokkas");
    wait(DEBOUNCE_MS);
    expect(params(1)).toMatchObject({ mode: "literal" });
  });
});
