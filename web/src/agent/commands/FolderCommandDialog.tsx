// The folder command dialog: browse, read and search the current folder with
// /knowledge-agent/command — the same tools the model uses, no model involved.

import { useTranslation } from "react-i18next";
import { useState } from "react";
import type { FormEvent } from "react";
import { ChevronLeft, ChevronRight, ExternalLink, File, Folder, LoaderCircle } from "lucide-react";
import { runLs, runRead, runSearch } from "../../api/agent";
import type { LsResult, ReadResult, SearchResult } from "../../api/agent";
import { isWithin, nameOf } from "../../api/uri";
import { Dialog } from "../../ui/Dialog";
import { formatBytes, formatNumber } from "../../ui/format";
import type { OpenPreview } from "../types";
import { useCommand } from "./useCommand";
import { searchNote } from "../../search/searchNote";

export const LS_PAGE = 50;

type Tab = "browse" | "read" | "search";

interface Props {
  scope: string;
  /** shows a URI briefly, e.g. kb://me/notes/a.md */
  display: (uri: string) => string;
  onClose: () => void;
  onOpenPreview: OpenPreview;
  initialTab?: Tab;
}

export function FolderCommandDialog(props: Props) {
  const { t } = useTranslation("agent");
  const [tab, setTab] = useState<Tab>(props.initialTab ?? "browse");
  const [readAt, setReadAt] = useState<{ uri: string; offset: number } | null>(null);
  const openRead = (uri: string, offset: number) => {
    setReadAt({ uri, offset });
    setTab("read");
  };
  return (
    <Dialog title={t("folder.title", { folder: props.display(props.scope) })} onClose={props.onClose} className="wide folder-dialog">
      <div className="tabs" role="tablist" aria-label={t("folder.command")}>
        {(["browse", "read", "search"] as const).map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={tab === name}
            className={`tab-btn ${tab === name ? "active" : ""}`}
            onClick={() => setTab(name)}
          >
            {name === "browse" ? "ls" : name}
          </button>
        ))}
      </div>
      <div className="command-pane">
        {tab === "browse" && <BrowsePane scope={props.scope} display={props.display} onRead={openRead} />}
        {tab === "read" && <ReadPane target={readAt} display={props.display} onOpenPreview={props.onOpenPreview} />}
        {tab === "search" && <SearchPane scope={props.scope} display={props.display} onRead={openRead} />}
      </div>
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={props.onClose}>
          {t("common:close")}
        </button>
      </div>
    </Dialog>
  );
}

function Loading() {
  const { t } = useTranslation("agent");
  return (
    <p className="muted small">
      <LoaderCircle size={12} className="spin" aria-hidden /> {t("common:loading")}
    </p>
  );
}

function BrowsePane(props: { scope: string; display: (u: string) => string; onRead: (uri: string, offset: number) => void }) {
  const { t } = useTranslation("agent");
  const [folder, setFolder] = useState(props.scope);
  const [offsets, setOffsets] = useState<number[]>([0]);
  const offset = offsets[offsets.length - 1] ?? 0;
  const q = useCommand<{ folder: string; offset: number; depth: number }, LsResult>(
    { folder, offset, depth: offsets.length },
    (r) => JSON.stringify(r),
    (r, s) => runLs(r.folder, r.offset, LS_PAGE, s),
  );
  const go = (uri: string) => {
    setFolder(uri);
    setOffsets([0]);
  };
  const up = folder !== props.scope && isWithin(folder, props.scope) ? folder.slice(0, folder.slice(0, -1).lastIndexOf("/") + 1) : null;
  // While the next page loads the last one stays on screen (busy), labelled
  // by its own request.
  const shown = q.last?.req.folder === folder ? q.last : undefined;
  const data = shown?.data;
  return (
    <div className="browse-pane" data-testid="ls-pane">
      <div className="pane-bar">
        <code className="scope ellipsis">{props.display(folder)}</code>
        {up && (
          <button type="button" className="btn small" onClick={() => go(up)}>
            {t("folder.up")}
          </button>
        )}
      </div>
      {q.current?.error && <p className="error small" role="alert">{q.current.error}</p>}
      {q.loading && !data && <Loading />}
      {shown && data && (
        <>
          <ul className="ls-list" aria-label={t("folder.contents")} aria-busy={q.loading}>
            {data.items.length === 0 && <li className="muted small">{t("folder.empty")}</li>}
            {data.items.map((it) => (
              <li key={it.uri}>
                <button
                  type="button"
                  className="ls-item"
                  onClick={() => (it.kind === "dir" ? go(it.uri) : props.onRead(it.uri, 0))}
                  title={it.kind === "dir" ? t("folder.openFolder") : t("folder.readFile")}
                >
                  {it.kind === "dir" ? <Folder size={13} aria-hidden /> : <File size={13} aria-hidden />}
                  <span className="ellipsis">{it.name}</span>
                  {it.generated && <span className="badge generated">{t("common:generated")}</span>}
                  {it.kind === "file" && <span className="muted small">{formatBytes(it.size)}</span>}
                </button>
              </li>
            ))}
          </ul>
          <Pager
            label={t("folder.items", { from: formatNumber(shown.req.offset + 1), to: formatNumber(shown.req.offset + data.items.length) })}
            hasPrev={!q.loading && offsets.length > 1}
            hasNext={!q.loading && data.next_offset !== null}
            onPrev={() => setOffsets((o) => o.slice(0, -1))}
            onNext={() => data.next_offset !== null && setOffsets((o) => [...o, data.next_offset as number])}
          />
        </>
      )}
    </div>
  );
}

function Pager(props: { label: string; hasPrev: boolean; hasNext: boolean; onPrev: () => void; onNext: () => void }) {
  const { t } = useTranslation("agent");
  return (
    <div className="pane-pager">
      <button type="button" className="btn small" disabled={!props.hasPrev} onClick={props.onPrev}>
        <ChevronLeft size={12} aria-hidden /> {t("folder.previous")}
      </button>
      <span className="muted small">{props.label}</span>
      <button type="button" className="btn small" disabled={!props.hasNext} onClick={props.onNext}>
        {t("folder.next")} <ChevronRight size={12} aria-hidden />
      </button>
    </div>
  );
}

function ReadPane(props: { target: { uri: string; offset: number } | null; display: (u: string) => string; onOpenPreview: OpenPreview }) {
  const { t } = useTranslation("agent");
  const [at, setAt] = useState(props.target);
  const q = useCommand<{ uri: string; offset: number }, ReadResult>(
    at,
    (r) => `${r.offset}:${r.uri}`,
    (r, s) => runRead(r.uri, r.offset, s),
  );
  if (!at) return <p className="muted">{t("folder.pickToRead")}</p>;
  const page = q.last?.req.uri === at.uri ? q.last.data : undefined;
  return (
    <div className="read-pane" data-testid="read-pane">
      <div className="pane-bar">
        <code className="scope ellipsis">{props.display(at.uri)}</code>
        <button type="button" className="btn small" onClick={() => props.onOpenPreview(at.uri, at.offset)}>
          <ExternalLink size={12} aria-hidden /> {t("folder.openInPreview")}
        </button>
      </div>
      {q.current?.error && <p className="error small" role="alert">{q.current.error}</p>}
      {q.loading && !page && <Loading />}
      {page && (
        <>
          {page.body === "none" ? (
            <p className="muted">{t("folder.noBody", { name: nameOf(at.uri) })}</p>
          ) : (
            <pre className="read-text">{page.text}</pre>
          )}
          <Pager
            label={
              page.total
                ? t("folder.chars", { from: formatNumber(page.offset + 1), to: formatNumber(page.offset + [...page.text].length), total: formatNumber(page.total) })
                : t("folder.emptyText")
            }
            hasPrev={!q.loading && page.prev_offset !== null}
            hasNext={!q.loading && page.next_offset !== null}
            onPrev={() => page.prev_offset !== null && setAt({ uri: at.uri, offset: page.prev_offset })}
            onNext={() => page.next_offset !== null && setAt({ uri: at.uri, offset: page.next_offset })}
          />
        </>
      )}
    </div>
  );
}

function SearchPane(props: { scope: string; display: (u: string) => string; onRead: (uri: string, offset: number) => void }) {
  const { t } = useTranslation("agent");
  const [draft, setDraft] = useState("");
  const [search, setSearch] = useState<{ query: string; cursors: (string | undefined)[]; n: number } | null>(null);
  const q = useCommand<NonNullable<typeof search>, SearchResult>(
    search,
    (r) => JSON.stringify([r.n, r.query, r.cursors]),
    (r, s) => runSearch(props.scope, r.query, r.cursors[r.cursors.length - 1], s),
  );
  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const query = draft.trim();
    if (query) setSearch((s) => ({ query, cursors: [undefined], n: (s?.n ?? 0) + 1 }));
  }
  // The label, the hits and the pager all come from the one settled response.
  const res = q.current?.data;
  const asked = q.current?.req;
  return (
    <div className="search-pane" data-testid="search-pane">
      <form className="search-form" onSubmit={onSubmit}>
        <input
          className="text-input"
          aria-label={t("folder.searchText")}
          placeholder={t("folder.searchPlaceholder")}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
        />
        <button type="submit" className="btn primary small" disabled={!draft.trim()}>
          {t("folder.search")}
        </button>
      </form>
      {q.current?.error && <p className="error small" role="alert">{q.current.error}</p>}
      {q.loading && <Loading />}
      {res && asked && (
        <>
          <p className="search-status small" data-testid="search-status">
            {t("folder.scanned", { count: res.scanned })}
            {res.complete ? t("folder.complete") : t("folder.moreAvailable")} · {t("folder.hitsOnPage", { count: res.hits.length, page: asked.cursors.length })}
          </p>
          {searchNote(res) && <p className="muted small">{searchNote(res)}</p>}
          <ul className="hit-list" aria-label={t("folder.hits")}>
            {res.hits.length === 0 && <li className="muted small">{t("folder.noHits")}</li>}
            {res.hits.map((h, i) => (
              <li key={`${h.uri}:${h.offset}:${i}`}>
                <button type="button" className="hit" onClick={() => props.onRead(h.uri, h.offset)}>
                  <span className="hit-where">
                    {h.line ? t("tool.hitLine", { name: props.display(h.uri), line: h.line }) : props.display(h.uri)}
                  </span>
                  <span className="hit-snippet">{h.snippet}</span>
                </button>
              </li>
            ))}
          </ul>
          <Pager
            label={res.complete ? t("folder.allVisited") : t("folder.moreToScan")}
            hasPrev={asked.cursors.length > 1}
            hasNext={res.next_offset !== null}
            onPrev={() => setSearch({ ...asked, cursors: asked.cursors.slice(0, -1) })}
            onNext={() => res.next_offset !== null && setSearch({ ...asked, cursors: [...asked.cursors, res.next_offset] })}
          />
        </>
      )}
    </div>
  );
}
