// A label beside a file's name when its text was recognized by OCR: the
// reader should know the words may be misread, and how surely they were read.

import { useTranslation } from "react-i18next";
import type { ContentPage } from "../api/types";
import { extensionOf } from "../api/uri";

export function OcrLabel({ page }: { page?: Pick<ContentPage, "source" | "ocr_confidence" | "ocr_low_confidence_pages"> }) {
  const { t } = useTranslation("preview");
  if (page?.source !== "ocr") return null;
  const n = Math.round(page.ocr_confidence ?? 0);
  const low = page.ocr_low_confidence_pages ?? [];
  const title = low.length > 0 ? `${t("ocr.title")} ${t("ocr.low", { pages: low.join(", ") })}` : t("ocr.title");
  return (
    <span className={low.length > 0 ? "badge ocr-label low" : "badge ocr-label"} data-testid="preview-ocr" title={title}>
      {t("ocr.label", { n })}
    </span>
  );
}

// Browsers show these; a TIFF's recognized text is shown alone.
const SHOWN = new Set(["png", "jpg", "jpeg", "gif", "webp", "bmp"]);

/** showsScan says whether the preview puts the image beside its OCR text. */
export function showsScan(name: string, page: Pick<ContentPage, "source">): boolean {
  return page.source === "ocr" && SHOWN.has(extensionOf(name));
}

/**
 * scanPages lists the pages of a scanned PDF whose images the preview shows
 * beside the text: those of the current window that OCR read. A body parsed
 * before the server said which pages a window shows lists every OCR page.
 */
export function scanPages(name: string, page: Pick<ContentPage, "source" | "pages" | "extraction">): number[] {
  if (page.source !== "ocr" || extensionOf(name) !== "pdf") return [];
  const ocred = new Set((page.extraction?.ocr?.pages ?? []).map((p) => p.page));
  return (page.pages ?? [...ocred]).filter((n) => ocred.has(n));
}
