// A scanned PDF shows the image of each page its text window comes from,
// fetched only when near the view, in a box that keeps a page's shape.

import { act } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mountEach } from "../testing/mount";
import "../i18n";
import { scanPages } from "./OcrLabel";
import { PdfPageImage } from "./PdfPageImage";

describe("scanPages", () => {
  const ocr = { source: "ocr" as const, extraction: { ocr: { pages: [{ page: 2 }, { page: 3 }] } } };
  it("lists the OCR pages of the window", () => {
    expect(scanPages("scan.PDF", { ...ocr, pages: [1, 2] })).toEqual([2]);
    expect(scanPages("scan.pdf", { ...ocr, pages: [3] })).toEqual([3]);
    expect(scanPages("scan.pdf", { ...ocr, pages: [1] })).toEqual([]);
  });
  it("lists every OCR page of a body parsed before windows named their pages", () => {
    expect(scanPages("scan.pdf", ocr)).toEqual([2, 3]);
  });
  it("stays away from text that was not OCRed and from images", () => {
    expect(scanPages("paper.pdf", { pages: [1], extraction: {} })).toEqual([]);
    expect(scanPages("scan.png", ocr)).toEqual([]);
  });
});

describe("PdfPageImage", () => {
  const page = mountEach();
  let observed: { cb: IntersectionObserverCallback; el?: Element }[];
  const fetches: string[] = [];
  beforeEach(() => {
    observed = [];
    fetches.length = 0;
    vi.stubGlobal(
      "IntersectionObserver",
      class {
        entry: { cb: IntersectionObserverCallback; el?: Element };
        constructor(cb: IntersectionObserverCallback) {
          this.entry = { cb };
          observed.push(this.entry);
        }
        observe(el: Element) {
          this.entry.el = el;
        }
        disconnect() {}
      },
    );
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        fetches.push(String(url));
        return new Response("\x89PNG", {
          status: 200,
          headers: { "Content-Type": "image/png" },
        });
      }),
    );
    vi.stubGlobal("URL", Object.assign(URL, { createObjectURL: () => "blob:page", revokeObjectURL: () => {} }));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("keeps the page's box, fetches the page once it nears the view, and names it", async () => {
    page.render(<PdfPageImage uri="kb://users/alice/scan.pdf" page={2} name="scan.pdf" />);
    const box = page.host.querySelector<HTMLElement>("[data-testid=preview-page-image]");
    expect(box?.className).toBe("page-image");
    expect(box?.dataset.page).toBe("2");
    expect(page.host.querySelector("img")).toBeNull();
    expect(fetches).toEqual([]);

    await act(async () => {
      observed[0]?.cb([{ isIntersecting: true } as IntersectionObserverEntry], {} as IntersectionObserver);
    });
    for (let i = 0; i < 5 && !page.host.querySelector("img"); i++) {
      await act(async () => {
        await new Promise((r) => setTimeout(r, 10));
      });
    }
    expect(page.host.querySelector("[role=img]")?.textContent ?? "").toBe("");
    expect(fetches).toHaveLength(1);
    expect(fetches[0]).toContain("/resources/page-image?");
    expect(fetches[0]).toContain("page=2");
    expect(fetches[0]).toContain("uri=kb%3A%2F%2Fusers%2Falice%2Fscan.pdf");
    const img = page.host.querySelector("img");
    expect(img?.getAttribute("src")).toBe("blob:page");
    expect(img?.getAttribute("alt")).toBe("Page 2 of scan.pdf, as scanned");
  });
});
