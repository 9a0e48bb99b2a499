// The Pages view of a PDF: the file's own bytes, fetched with the user's
// token and drawn by pdf.js page by page. Pages are laid out from their
// sizes (page 1's until a page is drawn), so the column has its full height
// at once and a jump to page N needs nothing drawn before it.

import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { LoaderCircle } from "lucide-react";
import { fetchRaw } from "../../api/resources";
import { messageOf } from "../../ui/errors";
import { openPDF } from "./pdfjs";
import type { PDFDocumentProxy } from "./pdfjs";
import { PDF_TO_CSS, fitZoom, nearPages, pageAt, pageBoxes, zoomIn, zoomOut } from "./layout";
import { PdfPage } from "./PdfPage";
import type { Size } from "./PdfPage";
import { PdfToolbar } from "./PdfToolbar";
import "./pdf.css";

/** PdfTarget is a page to open at, with the passage to highlight there; n makes each jump new. */
export interface PdfTarget {
  page: number;
  passage?: string;
  n: number;
}

/** PAD and GAP (CSS pixels) match .pdf-scroll's padding and .pdf-page's margin in pdf.css. */
const PAD = 12;
const GAP = 12;

export default function PdfViewer({ uri, name, target }: { uri: string; name: string; target?: PdfTarget }) {
  const { t } = useTranslation("preview");
  const { doc, error } = usePdfDocument(uri);
  const scrollRef = useRef<HTMLDivElement>(null);
  const [first, setFirst] = useState<Size | null>(null);
  const [sizes, setSizes] = useState<Record<number, Size>>({});
  const [zoom, setZoom] = useState<number | "fit">("fit");
  const [width, setWidth] = useState(0);
  const [view, setView] = useState({ top: 0, height: 0 });
  // A jump pins the page it went to, so a page too short to reach the
  // probe line (the last ones) still reads as the current page.
  const pin = useRef<{ page: number; top: number } | null>(null);
  const [pinned, setPinned] = useState<number | null>(null);

  useEffect(() => {
    if (!doc) return;
    let live = true;
    void doc.getPage(1).then((p) => {
      const v = p.getViewport({ scale: 1 });
      if (live) setFirst({ w: v.width, h: v.height });
    });
    return () => {
      live = false;
    };
  }, [doc]);

  // The column's width decides "fit width"; the view's height which pages to draw.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const measure = () => {
      setWidth(el.clientWidth - 2 * PAD);
      setView({ top: el.scrollTop, height: el.clientHeight });
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [doc]);

  const pages = doc?.numPages ?? 0;
  const zoomValue = zoom === "fit" ? fitZoom(width, first?.w ?? 0) : zoom;
  const scale = zoomValue * PDF_TO_CSS;
  const boxes = useMemo(() => {
    const heights = Array.from({ length: pages }, (_, i) => (sizes[i + 1] ?? first ?? { h: 0 }).h * scale);
    return pageBoxes(heights, GAP, PAD);
  }, [pages, sizes, first, scale]);
  const near = useMemo(() => nearPages(boxes, view.top, view.height), [boxes, view]);
  const current = pinned ?? pageAt(boxes, view.top + view.height / 3);

  const scrollTo = useCallback((page: number, top: number) => {
    const el = scrollRef.current;
    if (!el) return;
    el.scrollTop = top;
    pin.current = { page, top: el.scrollTop };
    setPinned(page);
    setView({ top: el.scrollTop, height: el.clientHeight });
  }, []);
  const goTo = useCallback(
    (page: number) => {
      const box = boxes[Math.min(Math.max(page, 1), boxes.length) - 1];
      if (box) scrollTo(Math.min(Math.max(page, 1), boxes.length), box.top - PAD);
    },
    [boxes, scrollTo],
  );

  // A zoom keeps the current page at the top.
  const keep = useRef<number | null>(null);
  const changeZoom = (z: number | "fit") => {
    keep.current = current;
    setZoom(z);
  };
  useLayoutEffect(() => {
    if (keep.current === null) return;
    const page = keep.current;
    keep.current = null;
    goTo(page);
  }, [scale, goTo]);

  // A jump opens its page once the layout is known, then centres the passage when its page is drawn.
  const jumped = useRef<number | null>(null);
  const ready = first !== null && width > 0;
  useLayoutEffect(() => {
    if (!target || !ready || jumped.current === target.n) return;
    jumped.current = target.n;
    goTo(target.page);
  }, [target, ready, goTo]);
  const centred = useRef<number | null>(null);
  const onHit = useCallback(
    (el: HTMLElement) => {
      const box = scrollRef.current;
      // Once per jump: the page is drawn again after a zoom or a scroll away and back.
      if (!box || !target || centred.current === target.n) return;
      centred.current = target.n;
      const r = el.getBoundingClientRect();
      const v = box.getBoundingClientRect();
      scrollTo(target.page, box.scrollTop + r.top - v.top - box.clientHeight / 3);
    },
    [target, scrollTo],
  );

  const frame = useRef(0);
  const onScroll = () => {
    cancelAnimationFrame(frame.current);
    frame.current = requestAnimationFrame(() => {
      const el = scrollRef.current;
      if (!el) return;
      if (pin.current && Math.abs(el.scrollTop - pin.current.top) > 1) {
        pin.current = null;
        setPinned(null);
      }
      setView({ top: el.scrollTop, height: el.clientHeight });
    });
  };
  useEffect(() => () => cancelAnimationFrame(frame.current), []);

  const onSize = useCallback(
    (page: number, s: Size) =>
      setSizes((cur) => {
        const was = cur[page];
        return was && Math.abs(was.w - s.w) < 0.5 && Math.abs(was.h - s.h) < 0.5 ? cur : { ...cur, [page]: s };
      }),
    [],
  );

  return (
    <>
      {doc && pages > 0 && (
        <PdfToolbar
          page={current}
          pages={pages}
          zoom={zoomValue}
          fit={zoom === "fit"}
          onPage={goTo}
          onZoomIn={() => changeZoom(zoomIn(zoomValue))}
          onZoomOut={() => changeZoom(zoomOut(zoomValue))}
          onFit={() => changeZoom("fit")}
        />
      )}
      <div
        className="preview-scroll pdf-scroll"
        ref={scrollRef}
        tabIndex={0}
        aria-label={t("contentOf", { name })}
        data-testid="pdf-pages"
        data-pages={pages || undefined}
        data-current-page={doc && ready ? current : undefined}
        onScroll={onScroll}
      >
        {error ? (
          <p className="error" role="alert">
            {error}
          </p>
        ) : !doc || !first ? (
          <p className="muted">
            <LoaderCircle size={14} className="spin" aria-hidden /> {t("common:loading")}
          </p>
        ) : (
          Array.from({ length: pages }, (_, i) => i + 1).map((n) => (
            <PdfPage
              key={n}
              doc={doc}
              page={n}
              pages={pages}
              size={sizes[n] ?? first}
              scale={scale}
              near={ready && near.has(n)}
              passage={target && target.page === n ? target.passage : undefined}
              onSize={onSize}
              onHit={target && target.page === n ? onHit : undefined}
            />
          ))
        )}
      </div>
    </>
  );
}

/** usePdfDocument fetches a file's bytes with the user's token and opens them with pdf.js. */
function usePdfDocument(uri: string): { doc: PDFDocumentProxy | null; error: string | null } {
  const { t } = useTranslation("preview");
  const [state, setState] = useState<{ doc: PDFDocumentProxy | null; error: string | null }>({ doc: null, error: null });
  useEffect(() => {
    const ac = new AbortController();
    let task: ReturnType<typeof openPDF> | null = null;
    setState({ doc: null, error: null });
    void (async () => {
      const blob = await fetchRaw(uri, ac.signal);
      const data = new Uint8Array(await blob.arrayBuffer());
      if (ac.signal.aborted) return;
      task = openPDF(data);
      const doc = await task.promise;
      if (!ac.signal.aborted) setState({ doc, error: null });
    })().catch((err: unknown) => {
      if (ac.signal.aborted) return;
      const pdfError = (err as { name?: string })?.name?.endsWith("Exception");
      setState({ doc: null, error: pdfError ? t("pdf.unreadable") : messageOf(err) });
    });
    return () => {
      ac.abort();
      void task?.destroy();
    };
  }, [uri, t]);
  return state;
}
