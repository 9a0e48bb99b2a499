// The middle panel: the selected file's text, one page at a time.

import { useTranslation } from "react-i18next";
import { Suspense, lazy, useEffect, useMemo, useRef, useState } from "react";
import type { ReactNode } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { FileText, Folder, LoaderCircle, Sparkles } from "lucide-react";
import { CONTENT_PAGE_SIZE, readContent } from "../api/resources";
import type { ContentPage } from "../api/types";
import { SHARED_ROOT, displayPath, extensionOf, folderOf, isFolderURI, nameOf } from "../api/uri";
import { openHref } from "../tree/TreeRowView";
import { useCachedListing } from "../api/listingQueries";
import { queryKeys } from "../api/queryKeys";
import { messageOf } from "../ui/errors";
import { DownloadButton } from "./DownloadButton";
import { EncodingLabel } from "./EncodingLabel";
import { OcrLabel, scanPages, showsScan } from "./OcrLabel";
import { PdfPageImage } from "./PdfPageImage";
import { ZoomableImage } from "./ZoomableImage";
import { PreviewPager } from "./PreviewPager";
import { FindInFile } from "./FindInFile";
import type { FindState } from "./FindInFile";
import { CURRENT_CLASS, MARK_CLASS, markText } from "./marks";
import { codePointLength, isPaged, loadPosition, pageCount, pageOf, pageSpan, pageStart, prevOffset, savePosition } from "./paging";
import { codeLanguage, previewKind } from "./previewKind";
import { splitFrontMatter } from "./frontMatter";
import { GeneratedProperties } from "./GeneratedProperties";
import { usePdfTarget } from "./pdf/usePdfTarget";
import { ViewSwitch } from "./ViewSwitch";
import type { PreviewView } from "./ViewSwitch";

const MarkdownView = lazy(() => import("./MarkdownView"));
const CodeView = lazy(() => import("./MarkdownView").then((m) => ({ default: m.CodeView })));
const CsvTable = lazy(() => import("./CsvTable"));
// pdf.js is large: it loads with the first PDF shown, never with the app.
const PdfViewer = lazy(() => import("./pdf/PdfViewer"));

/**
 * at opens the file at a code point offset (a KnowAgent read or search card);
 * with query (a tree search hit) it opens the page holding the offset with
 * find started at that hit. n makes each jump new.
 */
export interface PreviewJump {
  offset: number;
  query?: string;
  n: number;
}

export function FilePreview({
  uri,
  root,
  at,
  onOpen,
}: {
  uri: string | null;
  root: string;
  at?: PreviewJump;
  onOpen: (uri: string) => void;
}) {
  const { t } = useTranslation("preview");
  if (uri === null) {
    return (
      <PreviewFrame title={t("preview:title")}>
        <div className="empty-state">
          <FileText size={28} aria-hidden />
          <p>{t("preview:selectFile")}</p>
        </div>
      </PreviewFrame>
    );
  }
  if (uri === SHARED_ROOT) {
    return (
      <PreviewFrame title={t("tree:sharedWithMe")}>
        <div className="empty-state">
          <Folder size={28} aria-hidden />
          <p>{t("preview:sharedIntro")}</p>
        </div>
      </PreviewFrame>
    );
  }
  if (isFolderURI(uri)) {
    return (
      <PreviewFrame title={nameOf(uri) || t("tree:home")} path={displayPath(uri, root) || "/"}>
        <div className="empty-state">
          <Folder size={28} aria-hidden />
          <p>{t("preview:folder")}</p>
        </div>
      </PreviewFrame>
    );
  }
  return <FilePages key={at ? `${uri}#${at.n}` : uri} uri={uri} root={root} start={at?.offset} query={at?.query} onOpen={onOpen} />;
}

/**
 * SummaryLink opens the file's summary, as the tree's summary badge does; it
 * reads the folder listing the tree already loaded (no request of its own).
 */
function SummaryLink({ uri, onOpen }: { uri: string; onOpen: (uri: string) => void }) {
  const { t } = useTranslation("preview");
  const listing = useCachedListing(folderOf(uri));
  const node = listing.data?.items.find((n) => n.uri === uri);
  if (!node?.summary_uri) return null;
  const target = node.summary_uri;
  return (
    <a
      className="btn small"
      href={openHref(target)}
      onClick={(e) => {
        e.preventDefault();
        onOpen(target);
      }}
    >
      <Sparkles size={14} aria-hidden /> {node.summary === "stale" ? t("staleSummary") : t("summary")}
    </a>
  );
}

function FilePages(props: { uri: string; root: string; start?: number; query?: string; onOpen: (uri: string) => void }) {
  const { t } = useTranslation("preview");
  const { uri, root, start, query, onOpen } = props;
  // An explicit jump (a tool card, a search hit, a citation), even to the
  // file's start, wins; otherwise the file opens where it was last read in
  // this session. A search hit opens the whole page that holds it, as Next
  // hit does, so the hit is marked in context.
  const [saved] = useState(() => (start !== undefined ? null : loadPosition(uri)));
  const [offset, setOffset] = useState(() =>
    start === undefined
      ? (saved?.offset ?? 0)
      : query
        ? pageStart(pageOf(Math.max(0, start), CONTENT_PAGE_SIZE), Number.MAX_SAFE_INTEGER, CONTENT_PAGE_SIZE)
        : Math.max(0, start),
  );
  const [findStart] = useState(() => (query && start !== undefined ? { query, offset: start } : undefined));
  const restoreScroll = useRef<number | null>(saved?.scrollTop ?? null);
  const [find, setFind] = useState<FindState | null>(null);
  const [hitsOnPage, setHitsOnPage] = useState(0);
  const scrollRef = useRef<HTMLDivElement>(null);
  const q = useQuery({
    queryKey: queryKeys.contentPage(uri, offset),
    queryFn: ({ signal }) => readContent(uri, offset, CONTENT_PAGE_SIZE, signal),
    placeholderData: keepPreviousData,
    // A document's text is extracted moments after its upload: the
    // preview fills in by itself.
    refetchInterval: (query) => (query.state.data?.text_state === "text_pending" ? EXTRACTING_POLL_MS : false),
  });
  const page = q.data;
  const shown = page && page.offset === offset ? page : undefined;

  // A PDF opens on its pages, a scanned one on its recognized text beside
  // the scans (its pages carry no text to select).
  const pdf = extensionOf(nameOf(uri)) === "pdf";
  const [chosen, setChosen] = useState<PreviewView | null>(null);
  const view: PreviewView | null = !pdf ? "text" : (chosen ?? (q.isPending ? null : page?.source === "ocr" ? "text" : "pages"));
  const target = usePdfTarget(uri, start, query, pdf && view === "pages");

  useEffect(() => {
    if (restoreScroll.current === null) scrollRef.current?.scrollTo({ top: 0 });
  }, [offset]);
  useEffect(() => {
    savePosition(uri, { offset, scrollTop: scrollRef.current?.scrollTop ?? 0 });
  }, [uri, offset]);

  // The current hit, and which occurrence on this page it is.
  const hit = find?.hits[find.current];
  const occurrence = useMemo(() => {
    if (!find || !hit || !shown) return -1;
    const end = shown.offset + codePointLength(shown.text);
    if (hit.offset < shown.offset || hit.offset >= end) return -1;
    return find.hits.filter((h) => h.offset >= shown.offset && h.offset < hit.offset).length;
  }, [find, hit, shown]);

  // Going to a hit on another page turns to the page that holds it.
  useEffect(() => {
    if (!hit) return;
    setOffset((cur) => {
      const here = shown && hit.offset >= shown.offset && hit.offset < shown.offset + codePointLength(shown.text);
      return here ? cur : pageStart(pageOf(hit.offset, CONTENT_PAGE_SIZE), Number.MAX_SAFE_INTEGER, CONTENT_PAGE_SIZE);
    });
    // Only a new current hit moves the page, not a page load.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hit]);

  // The views draw every hit as a <mark>; this marks the current one and
  // scrolls to it. The view renders lazily, so look again when its DOM changes.
  useEffect(() => {
    const el = scrollRef.current;
    if (!el || !shown) return;
    if (!find) {
      setHitsOnPage(0);
      return;
    }
    let frame = 0;
    let scrolled = false;
    const paint = () => {
      const marks = [...el.querySelectorAll<HTMLElement>(`mark.${MARK_CLASS}`)];
      marks.forEach((m, i) => m.classList.toggle(CURRENT_CLASS, i === occurrence));
      setHitsOnPage(marks.length);
      const current = marks[occurrence];
      if (current && !scrolled) {
        scrolled = true;
        const box = current.getBoundingClientRect();
        const view = el.getBoundingClientRect();
        if (box.top < view.top || box.bottom > view.bottom) el.scrollTop += box.top - view.top - view.height / 3;
      }
    };
    paint();
    const mo = new MutationObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(paint);
    });
    mo.observe(el, { subtree: true, childList: true, characterData: true });
    return () => {
      mo.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [find, occurrence, shown]);

  // Restore the saved scroll once its page is on screen.
  useEffect(() => {
    if (shown && restoreScroll.current !== null) {
      const top = restoreScroll.current;
      restoreScroll.current = null;
      requestAnimationFrame(() => scrollRef.current?.scrollTo({ top }));
    }
  }, [shown]);

  const name = nameOf(uri);
  const frame = (children: ReactNode) => (
    <PreviewFrame
      title={name}
      path={displayPath(uri, root)}
      label={
        <>
          <EncodingLabel encoding={page?.encoding} />
          <OcrLabel page={page} />
        </>
      }
      actions={
        <>
          {pdf && view && <ViewSwitch view={view} onChange={setChosen} />}
          <SummaryLink uri={uri} onOpen={onOpen} />
          <DownloadButton uri={uri} name={name} />
        </>
      }
    >
      {children}
    </PreviewFrame>
  );
  if (view !== "text") {
    const loading = (
      <p className="muted preview-scroll">
        <LoaderCircle size={14} className="spin" aria-hidden /> {t("common:loading")}
      </p>
    );
    return frame(
      <>
        {page?.body === "none" && page.text_state && (
          <div className="text-state-note">
            <PageBody page={page} name={name} />
          </div>
        )}
        {view === null ? loading : (
          <Suspense fallback={loading}>
            <PdfViewer uri={uri} name={name} target={target} />
          </Suspense>
        )}
      </>,
    );
  }

  const pages = page ? pageCount(page.total, CONTENT_PAGE_SIZE) : 1;
  const header = page && isPaged(page) && page.body !== "none" && page.total > 0 && (
    <PreviewPager
      span={pageSpan(page)}
      page={pageOf(page.offset, CONTENT_PAGE_SIZE)}
      pages={pages}
      hasPrev={offset > 0}
      hasNext={page.next_offset !== null}
      onPrev={() => setOffset(prevOffset(offset, CONTENT_PAGE_SIZE))}
      onNext={() => page.next_offset !== null && setOffset(page.next_offset)}
      onPage={(n) => setOffset(pageStart(n, page.total, CONTENT_PAGE_SIZE))}
    />
  );

  return frame(
    <>
      {header}
      {page && page.body !== "none" && page.total > 0 && <FindInFile uri={uri} start={findStart} onFind={setFind} />}
      <div
        className="preview-scroll"
        ref={scrollRef}
        tabIndex={0}
        aria-label={t("contentOf", { name })}
        data-find-hits={find ? hitsOnPage : undefined}
        onScroll={(e) => savePosition(uri, { offset, scrollTop: e.currentTarget.scrollTop })}
      >
        {q.isPending ? (
          <p className="muted">
            <LoaderCircle size={14} className="spin" aria-hidden /> {t("common:loading")}
          </p>
        ) : q.isError ? (
          <p className="error" role="alert">
            {messageOf(q.error)}
          </p>
        ) : (
          <PageBody page={q.data} name={name} mark={find?.query} root={root} onOpen={onOpen} />
        )}
      </div>
    </>,
  );
}

/** How often a preview waiting for a document's text asks again. */
const EXTRACTING_POLL_MS = 2000;

export function PageBody({
  page,
  name,
  mark,
  root = "",
  onOpen,
}: {
  page: ContentPage;
  name: string;
  mark?: string;
  root?: string;
  onOpen?: (uri: string) => void;
}) {
  const { t } = useTranslation("preview");
  if (page.body === "none" && page.text_state === "text_pending") {
    return (
      <div className="empty-state" data-testid="preview-extracting" role="status">
        <p>{t("extracting")}</p>
        {page.text_progress ? (
          <p className="muted">
            <progress value={page.text_progress.pages} max={page.text_progress.of} /> {t("extractingPages", page.text_progress)}
          </p>
        ) : (
          <p className="muted">{t("extractingHint")}</p>
        )}
      </div>
    );
  }
  if (page.body === "none" && page.text_state === "text_failed") {
    return (
      <div className="empty-state" data-testid="preview-text-failed">
        <p>{t("textFailed")}</p>
        {page.note && <p className="muted">{page.note}</p>}
        <p className="muted">{t("textFailedHint")}</p>
      </div>
    );
  }
  if (page.body === "none") {
    return (
      <div className="empty-state" data-testid="preview-no-body">
        <p>{t("noBody")}</p>
        <p className="muted">{t("noBodyHint")}</p>
      </div>
    );
  }
  if (page.total === 0) {
    return (
      <div className="empty-state" data-testid="preview-empty">
        <p>{t("empty")}</p>
      </div>
    );
  }
  const scans = scanPages(name, page);
  if (showsScan(name, page) || scans.length > 0) {
    return (
      <div className="ocr-split" data-testid="preview-ocr-split">
        <figure aria-label={t("ocr.image")}>
          {scans.length > 0 ? (
            scans.map((n) => <PdfPageImage key={n} uri={page.uri} page={n} name={name} />)
          ) : (
            <ZoomableImage uri={page.uri} alt={name} />
          )}
        </figure>
        <pre className="plain" aria-label={t("ocr.text")}>
          {markText(page.text, mark)}
        </pre>
      </div>
    );
  }
  const kind = previewKind(name, page.body);
  return (
    <Suspense fallback={<pre className="plain">{page.text}</pre>}>
      {kind === "markdown" ? (
        <GeneratedMarkdown page={page} root={root} mark={mark} onOpen={onOpen} />
      ) : kind === "csv" ? (
        <CsvTable
          text={page.text}
          first={page.offset === 0}
          last={page.next_offset === null}
          tab={extensionOf(name) === "tsv"}
          mark={mark}
        />
      ) : kind === "code" ? (
        <CodeView text={page.text} language={codeLanguage(name)} mark={mark} />
      ) : (
        <pre className="plain">{markText(page.text, mark)}</pre>
      )}
    </Suspense>
  );
}

function PreviewFrame(props: {
  title: string;
  path?: string;
  label?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="preview">
      <div className="panel-header">
        <h2 className="panel-title preview-title" title={props.path}>
          <FileText size={16} aria-hidden />
          <span className="ellipsis">{props.title}</span>
          {props.label}
          {props.path && props.path !== props.title && <span className="muted path ellipsis">{props.path}</span>}
        </h2>
        <div className="panel-actions">{props.actions}</div>
      </div>
      {props.children}
    </div>
  );
}

/** GeneratedMarkdown shows a page of Markdown, a compiled file's provenance block as properties above it. */
function GeneratedMarkdown({ page, root, mark, onOpen }: { page: ContentPage; root: string; mark?: string; onOpen?: (uri: string) => void }) {
  const { meta, body } = page.offset === 0 ? splitFrontMatter(page.text) : { meta: null, body: page.text };
  return (
    <>
      {meta && <GeneratedProperties meta={meta} root={root} onOpen={onOpen} />}
      <MarkdownView text={body} base={page.uri} mark={mark} />
    </>
  );
}
