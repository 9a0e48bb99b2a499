import { useEffect, useState } from "react";
import type { FormEvent } from "react";
import { ChevronFirst, ChevronLast, ChevronLeft, ChevronRight } from "lucide-react";
import type { PageSpan } from "./paging";

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
  const { span, page, pages } = props;
  const [draft, setDraft] = useState(String(page));
  useEffect(() => setDraft(String(page)), [page]);
  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const n = Number.parseInt(draft, 10);
    if (Number.isFinite(n)) props.onPage(Math.min(Math.max(1, n), pages));
    else setDraft(String(page));
  }
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" className="icon-btn" onClick={() => props.onPage(1)} disabled={!props.hasPrev} aria-label="First page" title="First page">
        <ChevronFirst size={14} aria-hidden />
      </button>
      <button type="button" className="btn small" onClick={props.onPrev} disabled={!props.hasPrev}>
        <ChevronLeft size={14} aria-hidden /> Previous page
      </button>
      <form className="pager-jump" onSubmit={onSubmit}>
        <label>
          Page{" "}
          <input
            className="text-input page-input"
            inputMode="numeric"
            aria-label={`Page number, 1 to ${pages}`}
            value={draft}
            onChange={(e) => setDraft(e.target.value.replace(/[^0-9]/g, ""))}
            onBlur={() => setDraft(String(page))}
          />
        </label>{" "}
        <span>of {pages.toLocaleString()}</span>
      </form>
      <button type="button" className="btn small" onClick={props.onNext} disabled={!props.hasNext}>
        Next page <ChevronRight size={14} aria-hidden />
      </button>
      <button type="button" className="icon-btn" onClick={() => props.onPage(pages)} disabled={!props.hasNext} aria-label="Last page" title="Last page">
        <ChevronLast size={14} aria-hidden />
      </button>
      <span className="pager-info" aria-live="polite">
        Characters {span.from.toLocaleString()}–{span.to.toLocaleString()} of {span.total.toLocaleString()}
      </span>
    </nav>
  );
}
