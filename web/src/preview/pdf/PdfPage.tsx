// One page of a PDF: a box of the page's size always, and, while it is near
// the view, its canvas and a text layer of transparent, selectable text
// over it. Leaving the view frees both, so a long book holds a few canvases.

import { useEffect, useRef, useState } from "react";
import type { CSSProperties } from "react";
import { useTranslation } from "react-i18next";
import { TextLayer } from "./pdfjs";
import type { PDFDocumentProxy } from "./pdfjs";
import { passageItems } from "./layout";

/** Size is a page's width and height in PDF points, as drawn (rotation applied). */
export interface Size {
  w: number;
  h: number;
}

/** HIT_CLASS marks the text-layer pieces that hold a cited passage. */
export const HIT_CLASS = "pdf-hit";

/** MAX_CANVAS_PIXELS bounds one page's canvas (a 400 % zoom on a sharp screen would take hundreds of MB). */
const MAX_CANVAS_PIXELS = 16_777_216;

export function PdfPage(props: {
  doc: PDFDocumentProxy;
  page: number;
  pages: number;
  size: Size;
  /** CSS pixels per PDF point */
  scale: number;
  near: boolean;
  passage?: string;
  onSize: (page: number, size: Size) => void;
  onHit?: (el: HTMLElement) => void;
}) {
  const { t } = useTranslation("preview");
  const { doc, page, size, scale, near, passage, onSize, onHit } = props;
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const textRef = useRef<HTMLDivElement>(null);
  const [rendered, setRendered] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const canvas = canvasRef.current;
    const text = textRef.current;
    if (!near || !canvas || !text) return;
    let cancelled = false;
    let task: { cancel: () => void } | null = null;
    let layer: TextLayer | null = null;
    setRendered(false);
    void (async () => {
      const p = await doc.getPage(page);
      if (cancelled) return;
      const base = p.getViewport({ scale: 1 });
      onSize(page, { w: base.width, h: base.height });
      const viewport = p.getViewport({ scale });
      const dpr = Math.min(window.devicePixelRatio || 1, Math.sqrt(MAX_CANVAS_PIXELS / (viewport.width * viewport.height)));
      canvas.width = Math.floor(viewport.width * dpr);
      canvas.height = Math.floor(viewport.height * dpr);
      const render = p.render({ canvas, viewport, transform: dpr === 1 ? undefined : [dpr, 0, 0, dpr, 0, 0] });
      task = render;
      await render.promise;
      if (cancelled) return;
      text.replaceChildren();
      layer = new TextLayer({ textContentSource: p.streamTextContent(), container: text, viewport });
      await layer.render();
      if (cancelled) return;
      if (passage) {
        const hits = passageItems(layer.textContentItemsStr, passage).map((i) => layer?.textDivs[i]);
        for (const el of hits) el?.classList.add(HIT_CLASS);
        if (hits[0]) onHit?.(hits[0]);
      }
      setRendered(true);
    })().catch((err: unknown) => {
      // A cancelled render is the normal end of a page that left the view or changed zoom.
      if (!cancelled && (err as { name?: string })?.name !== "RenderingCancelledException") setFailed(true);
    });
    return () => {
      cancelled = true;
      task?.cancel();
      layer?.cancel();
    };
    // onSize and onHit are read when a render ends, not reasons to draw again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [doc, page, scale, near, passage]);

  const width = size.w * scale;
  const height = size.h * scale;
  return (
    <div
      className="pdf-page"
      role="group"
      aria-label={t("pdf.pageLabel", { page, pages: props.pages })}
      data-page={page}
      data-rendered={near && rendered ? "true" : undefined}
      style={{ width, height, "--total-scale-factor": scale } as CSSProperties}
    >
      {near && <canvas ref={canvasRef} aria-hidden />}
      {near && <div ref={textRef} className="textLayer" />}
      {failed && <span className="pdf-page-error">{t("pdf.pageFailed", { page })}</span>}
    </div>
  );
}
