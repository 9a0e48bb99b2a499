import { useTranslation } from "react-i18next";
import type { ReactNode } from "react";
import type { TFunction } from "i18next";
import { followable, parseCitation } from "./citation";
import { useCitations } from "./CitationContext";
import { placeName } from "../ui/placeName";

function openTitle(t: TFunction, uri: string, line?: number, endLine?: number): string {
  if (!line) return t("openInPreview", { uri });
  if (endLine && endLine !== line) return t("openLinesInPreview", { uri, line, endLine });
  return t("openLineInPreview", { uri, line });
}

/** citeLabel names a cited place in words: its path and the lines it cites. */
function citeLabel(t: TFunction, path: string, line?: number, endLine?: number): string {
  if (!line) return path;
  if (endLine && endLine !== line) return t("atLines", { path, line, endLine });
  return t("atLine", { path, line });
}

/** bareAddress tells a link written as its own address (an answer's kb://…#L3), which reads better as a path. */
function bareAddress(children: ReactNode, href: string): boolean {
  const text = Array.isArray(children) ? children.join("") : children;
  return typeof text === "string" && text.trim() === href;
}

/**
 * CitationLink renders a link of an answer. A kb:// URI in the chat's folder
 * opens in the preview (at its line) without leaving the chat; one outside
 * is plain text; other links open in a new tab.
 */
export function CitationLink({ href, children }: { href?: string; children?: ReactNode }) {
  const { t } = useTranslation("citations");
  const ctx = useCitations();
  const place = (uri: string) => placeName(uri, ctx?.root ?? null, t("tree:home"));
  if (!href) return <>{children}</>;
  if (!href.startsWith("kb://")) {
    return (
      <a href={href} target="_blank" rel="noreferrer noopener">
        {children}
      </a>
    );
  }
  const c = ctx ? parseCitation(href, ctx.root) : null;
  if (!ctx || !c || !followable(c, ctx.scope)) {
    return <span className="kb-cite-plain">{children}</span>;
  }
  return (
    <a
      className="kb-link"
      href={`?open=${encodeURIComponent(c.uri)}`}
      data-kb-uri={c.uri}
      data-kb-line={c.line}
      title={openTitle(t, place(c.uri), c.line, c.endLine)}
      onClick={(e) => {
        if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        ctx.open(c);
      }}
    >
      {bareAddress(children, href) ? citeLabel(t, place(c.uri), c.line, c.endLine) : children}
    </a>
  );
}
