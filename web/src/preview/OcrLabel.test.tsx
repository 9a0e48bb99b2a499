// The OCR label says the text was recognized and how surely, and marks
// low-confidence pages; it stays away from text that was not OCRed.

import { describe, expect, it } from "vitest";
import { mountEach } from "../testing/mount";
import "../i18n";
import { OcrLabel, showsScan } from "./OcrLabel";

describe("OcrLabel", () => {
  const page = mountEach();

  it("shows the confidence and warns of recognition errors", () => {
    page.render(<OcrLabel page={{ source: "ocr", ocr_confidence: 93.6 }} />);
    const label = page.host.querySelector<HTMLElement>("[data-testid=preview-ocr]");
    expect(label?.textContent).toBe("OCR · confidence 94%");
    expect(label?.title).toContain("recognition errors");
    expect(label?.classList.contains("low")).toBe(false);
  });

  it("marks pages under the confidence floor", () => {
    page.render(<OcrLabel page={{ source: "ocr", ocr_confidence: 51, ocr_low_confidence_pages: [2, 5] }} />);
    const label = page.host.querySelector<HTMLElement>("[data-testid=preview-ocr]");
    expect(label?.classList.contains("low")).toBe(true);
    expect(label?.title).toContain("pages 2, 5");
  });

  it("shows nothing for text that was not recognized", () => {
    page.render(<OcrLabel page={{}} />);
    expect(page.host.innerHTML).toBe("");
    page.render(<OcrLabel />);
    expect(page.host.innerHTML).toBe("");
  });

  it("puts displayable images beside their text, not PDFs or TIFFs", () => {
    expect(showsScan("scan.PNG", { source: "ocr" })).toBe(true);
    expect(showsScan("photo.jpeg", { source: "ocr" })).toBe(true);
    expect(showsScan("scan.tiff", { source: "ocr" })).toBe(false);
    expect(showsScan("paper.pdf", { source: "ocr" })).toBe(false);
    expect(showsScan("scan.png", {})).toBe(false);
  });
});
