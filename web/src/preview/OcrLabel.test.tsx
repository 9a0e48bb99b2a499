// The OCR label says the text was recognized and how surely, and marks
// low-confidence pages; it stays away from text that was not OCRed.

import { act } from "react";
import { createRoot } from "react-dom/client";
import type { Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import "../i18n";
import { OcrLabel, showsScan } from "./OcrLabel";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe("OcrLabel", () => {
  let host: HTMLDivElement;
  let root: Root;
  beforeEach(() => {
    host = document.createElement("div");
    document.body.append(host);
    root = createRoot(host);
  });
  afterEach(() => {
    act(() => root.unmount());
    host.remove();
  });

  it("shows the confidence and warns of recognition errors", () => {
    act(() => root.render(<OcrLabel page={{ source: "ocr", ocr_confidence: 93.6 }} />));
    const label = host.querySelector<HTMLElement>("[data-testid=preview-ocr]");
    expect(label?.textContent).toBe("OCR · confidence 94%");
    expect(label?.title).toContain("recognition errors");
    expect(label?.classList.contains("low")).toBe(false);
  });

  it("marks pages under the confidence floor", () => {
    act(() => root.render(<OcrLabel page={{ source: "ocr", ocr_confidence: 51, ocr_low_confidence_pages: [2, 5] }} />));
    const label = host.querySelector<HTMLElement>("[data-testid=preview-ocr]");
    expect(label?.classList.contains("low")).toBe(true);
    expect(label?.title).toContain("pages 2, 5");
  });

  it("shows nothing for text that was not recognized", () => {
    act(() => root.render(<OcrLabel page={{}} />));
    expect(host.innerHTML).toBe("");
    act(() => root.render(<OcrLabel />));
    expect(host.innerHTML).toBe("");
  });

  it("puts displayable images beside their text, not PDFs or TIFFs", () => {
    expect(showsScan("scan.PNG", { source: "ocr" })).toBe(true);
    expect(showsScan("photo.jpeg", { source: "ocr" })).toBe(true);
    expect(showsScan("scan.tiff", { source: "ocr" })).toBe(false);
    expect(showsScan("paper.pdf", { source: "ocr" })).toBe(false);
    expect(showsScan("scan.png", {})).toBe(false);
  });
});
