import { useTranslation } from "react-i18next";
import { FileText } from "lucide-react";
import { nameOf } from "../api/uri";
import type { OpenPreview } from "../agent/types";
import type { Source } from "./sources";

/** SourcesList is the collapsed list, under an answer, of the files its tools read. */
export function SourcesList({ sources, display, onOpenPreview }: { sources: Source[]; display: (uri: string) => string; onOpenPreview: OpenPreview }) {
  const { t } = useTranslation("citations");
  if (sources.length === 0) return null;
  return (
    <details className="sources" data-testid="sources">
      <summary>
        {t("sources")} <span className="muted">({sources.length})</span>
      </summary>
      <ul>
        {sources.map((s) => (
          <li key={s.uri}>
            <button type="button" className="link-btn source-open" data-kb-uri={s.uri} title={display(s.uri)} onClick={() => onOpenPreview(s.uri, s.offset)}>
              <FileText size={12} aria-hidden /> {nameOf(s.uri)}
            </button>{" "}
            <code className="muted small ellipsis">{display(s.uri)}</code>
          </li>
        ))}
      </ul>
    </details>
  );
}
