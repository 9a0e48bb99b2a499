// The PDF viewer's bar: previous and next page, a page number to type
// (Enter goes there), zoom out, the zoom, zoom in and fit width.

import { useTranslation } from "react-i18next";
import { ChevronLeft, ChevronRight, MoveHorizontal, ZoomIn, ZoomOut } from "lucide-react";
import { formatNumber } from "../../ui/format";
import { PageJump } from "../PageJump";

export function PdfToolbar(props: {
  page: number;
  pages: number;
  zoom: number;
  fit: boolean;
  onPage: (page: number) => void;
  onZoomIn: () => void;
  onZoomOut: () => void;
  onFit: () => void;
}) {
  const { t } = useTranslation("preview");
  const { page, pages } = props;
  return (
    <nav className="pager pdf-toolbar" aria-label={t("pdf.nav")}>
      <button type="button" className="btn small" onClick={() => props.onPage(page - 1)} disabled={page <= 1}>
        <ChevronLeft size={14} aria-hidden /> {t("pager.previous")}
      </button>
      <PageJump page={page} pages={pages} onPage={props.onPage} />
      <button type="button" className="btn small" onClick={() => props.onPage(page + 1)} disabled={page >= pages}>
        {t("pager.next")} <ChevronRight size={14} aria-hidden />
      </button>
      <span className="pdf-zoom" role="group" aria-label={t("pdf.zoom")}>
        <button type="button" className="icon-btn" onClick={props.onZoomOut} aria-label={t("pdf.zoomOut")} title={t("pdf.zoomOut")}>
          <ZoomOut size={14} aria-hidden />
        </button>
        <output className="pdf-zoom-value" aria-live="polite">
          {formatNumber(Math.round(props.zoom * 100))}%
        </output>
        <button type="button" className="icon-btn" onClick={props.onZoomIn} aria-label={t("pdf.zoomIn")} title={t("pdf.zoomIn")}>
          <ZoomIn size={14} aria-hidden />
        </button>
        <button
          type="button"
          className="icon-btn"
          onClick={props.onFit}
          aria-pressed={props.fit}
          aria-label={t("pdf.fitWidth")}
          title={t("pdf.fitWidth")}
        >
          <MoveHorizontal size={14} aria-hidden />
        </button>
      </span>
    </nav>
  );
}
