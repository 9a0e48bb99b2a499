import { useTranslation } from "react-i18next";
import { PageJump } from "./PageJump";
import { ChevronFirst, ChevronLast, ChevronLeft, ChevronRight } from "lucide-react";
import type { PageSpan } from "./paging";
import { formatNumber } from "../ui/format";

/**
 * PreviewPager moves between pages of a long file: first, previous, a page
 * number to type (Enter jumps), next and last.
 */
export function PreviewPager(props: {
  span: PageSpan;
  page: number;
  pages: number;
  hasPrev: boolean;
  hasNext: boolean;
  onPrev: () => void;
  onNext: () => void;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation("preview");
  const { span, page, pages } = props;
  return (
    <nav className="pager" aria-label={t("pager.pages")}>
      <button type="button" className="icon-btn" onClick={() => props.onPage(1)} disabled={!props.hasPrev} aria-label={t("pager.first")} title={t("pager.first")}>
        <ChevronFirst size={14} aria-hidden />
      </button>
      <button type="button" className="btn small" onClick={props.onPrev} disabled={!props.hasPrev}>
        <ChevronLeft size={14} aria-hidden /> {t("pager.previous")}
      </button>
      <PageJump page={page} pages={pages} onPage={props.onPage} />
      <button type="button" className="btn small" onClick={props.onNext} disabled={!props.hasNext}>
        {t("pager.next")} <ChevronRight size={14} aria-hidden />
      </button>
      <button type="button" className="icon-btn" onClick={() => props.onPage(pages)} disabled={!props.hasNext} aria-label={t("pager.last")} title={t("pager.last")}>
        <ChevronLast size={14} aria-hidden />
      </button>
      <span className="pager-info" aria-live="polite">
        {t("pager.chars", { from: formatNumber(span.from), to: formatNumber(span.to), total: formatNumber(span.total) })}
      </span>
    </nav>
  );
}
