// A PDF opens on its pages and a scanned one on its recognized text; Text
// and Pages switch between them; a jump reaches the viewer as the page the
// server says holds its offset, with the cited words. pdf.js stays out:
// the lazily loaded viewer is replaced by a stand-in that shows its props.

import { act } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mountEach, withClient } from "../testing/mount";
import "../i18n";
import { FilePreview } from "./FilePreview";

vi.mock("./pdf/PdfViewer", () => ({
  default: ({ target }: { target?: { page: number; passage?: string } }) => (
    <div data-testid="viewer-stub" data-page={target?.page} data-passage={target?.passage} />
  ),
}));

const ROOT = "kb://users/ann/";
const text = "Harbour log, part 1\nThe keeper wrote the amber signal.\n";

function contentAnswer(url: URL, extra: Record<string, unknown>) {
  const offset = Number(url.searchParams.get("offset") ?? 0);
  const body = {
    uri: url.searchParams.get("uri"),
    offset,
    limit: Number(url.searchParams.get("limit")),
    next_offset: null,
    total: text.length,
    body: "l2",
    text: text.slice(offset),
    pages: offset > 0 ? [12] : [1],
    ...extra,
  };
  return new Response(JSON.stringify(body), { status: 200, headers: { "Content-Type": "application/json" } });
}

describe("the view of a PDF", () => {
  const page = mountEach();
  let extra: Record<string, unknown>;
  beforeEach(() => {
    extra = {};
    Element.prototype.scrollTo ??= () => {}; // jsdom lays nothing out
    vi.stubGlobal(
      "fetch",
      vi.fn(async (input: string) => {
        const url = new URL(input, "http://test");
        if (url.pathname.endsWith("/resources/content")) return contentAnswer(url, extra);
        return new Response(JSON.stringify({ uri: ROOT, items: [] }), { status: 200, headers: { "Content-Type": "application/json" } });
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  const button = (name: string) => [...page.host.querySelectorAll("button")].find((b) => b.textContent?.trim() === name);

  it("opens on Pages, and Text shows the extracted text", async () => {
    page.render(withClient(<FilePreview uri={`${ROOT}log.pdf`} root={ROOT} onOpen={() => {}} />));
    await vi.waitFor(() => expect(page.host.querySelector('[data-testid="viewer-stub"]')).not.toBeNull());
    expect(button("Pages")?.getAttribute("aria-pressed")).toBe("true");
    act(() => button("Text")?.click());
    await vi.waitFor(() => expect(page.host.querySelector("pre.plain")?.textContent).toContain("amber signal"));
    expect(page.host.querySelector('[data-testid="viewer-stub"]')).toBeNull();
  });

  it("opens a scanned PDF on its recognized text", async () => {
    extra = { source: "ocr" };
    page.render(withClient(<FilePreview uri={`${ROOT}scan.pdf`} root={ROOT} onOpen={() => {}} />));
    await vi.waitFor(() => expect(button("Text")?.getAttribute("aria-pressed")).toBe("true"));
    expect(page.host.querySelector('[data-testid="viewer-stub"]')).toBeNull();
  });

  it("opens a jump at the page holding its offset, with the cited words", async () => {
    const at = { offset: text.indexOf("The keeper"), n: 1 };
    page.render(withClient(<FilePreview uri={`${ROOT}log.pdf`} root={ROOT} at={at} onOpen={() => {}} />));
    await vi.waitFor(() => expect(page.host.querySelector('[data-testid="viewer-stub"]')?.getAttribute("data-page")).toBe("12"));
    expect(page.host.querySelector('[data-testid="viewer-stub"]')?.getAttribute("data-passage")).toBe("The keeper wrote the amber signal.");
  });

  it("shows no switch for other files", async () => {
    page.render(withClient(<FilePreview uri={`${ROOT}notes.txt`} root={ROOT} onOpen={() => {}} />));
    await vi.waitFor(() => expect(page.host.querySelector("pre.plain")).not.toBeNull());
    expect(button("Pages")).toBeUndefined();
  });
});
