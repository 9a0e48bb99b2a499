import { ChevronLeft, ChevronRight } from "lucide-react";
import type { PageSpan } from "./paging";

/** PreviewPager moves between pages of a long file. */
export function PreviewPager(props: {
  span: PageSpan;
  hasPrev: boolean;
  hasNext: boolean;
  onPrev: () => void;
  onNext: () => void;
}) {
  const { span } = props;
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" className="btn small" onClick={props.onPrev} disabled={!props.hasPrev}>
        <ChevronLeft size={14} aria-hidden /> Previous page
      </button>
      <span className="pager-info" aria-live="polite">
        Characters {span.from.toLocaleString()}–{span.to.toLocaleString()} of {span.total.toLocaleString()}
      </span>
      <button type="button" className="btn small" onClick={props.onNext} disabled={!props.hasNext}>
        Next page <ChevronRight size={14} aria-hidden />
      </button>
    </nav>
  );
}
