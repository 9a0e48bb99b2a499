// Find in the previewed file with the server's search aimed at one file
// (GET /search?uri=<file>, which pages through the file's hits in order):
// hits arrive a page at a time, Next walks into the next page of hits when
// the loaded ones run out, and the count says whether the search has seen
// the whole file. Opened from a search hit, it starts at that hit.

import { useTranslation } from "react-i18next";
import { useEffect, useRef, useState } from "react";
import type { FormEvent } from "react";
import { ChevronDown, ChevronUp, LoaderCircle, Search, X } from "lucide-react";
import type { SearchHit } from "../api/agent";
import { searchResources } from "../api/search";
import { messageOf } from "../ui/errors";
import i18n from "../i18n";

/** MAX_SEEK_PAGES bounds how many pages of hits opening at a hit reads to find it. */
const MAX_SEEK_PAGES = 25;

export interface FindState {
  query: string;
  hits: SearchHit[];
  /** index of the current hit in hits */
  current: number;
  /** the cursor of the next page of hits, null when the whole file was searched */
  cursor: string | null;
  /** the server listed only the first hits of this file (more_hits_in): the count is a lower bound */
  capped: boolean;
}

/** findLabel is the count shown beside the box: where we are and whether it is all. */
export function findLabel(f: FindState): string {
  const at = { n: f.current + 1, count: f.hits.length };
  if (f.hits.length === 0) return f.cursor === null ? i18n.t("preview:find.none") : i18n.t("preview:find.noneYet");
  if (f.cursor !== null) return i18n.t("preview:find.more", at);
  if (f.capped) return i18n.t("preview:find.capped", at);
  return i18n.t("preview:find.all", at);
}

/** FindStart opens find at the hit of query at a code point offset (a tree search hit). */
export interface FindStart {
  query: string;
  offset: number;
}

export function FindInFile(props: { uri: string; start?: FindStart; onFind: (f: FindState | null) => void }) {
  const { t } = useTranslation("preview");
  const [draft, setDraft] = useState(props.start?.query ?? "");
  const [find, setFind] = useState<FindState | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Each request gets a number; an answer to anything but the newest is
  // dropped, and starting a request aborts the one before.
  const seq = useRef(0);
  const inFlight = useRef<AbortController | null>(null);
  useEffect(() => () => inFlight.current?.abort(), []);

  const show = (f: FindState | null) => {
    setFind(f);
    props.onFind(f);
  };

  async function fetchPage(query: string, cursor: string | undefined): Promise<{ hits: SearchHit[]; cursor: string | null; capped: boolean } | null> {
    const n = ++seq.current;
    inFlight.current?.abort();
    const ctrl = new AbortController();
    inFlight.current = ctrl;
    setBusy(true);
    setError(null);
    try {
      const res = await searchResources({ uri: props.uri, q: query, kind: "content", cursor }, ctrl.signal);
      if (n !== seq.current) return null;
      return {
        hits: (res.items ?? []).filter((h) => h.uri === props.uri),
        cursor: res.complete ? null : res.next_cursor,
        capped: (res.more_hits_in ?? []).includes(props.uri),
      };
    } catch (err) {
      if (n === seq.current && !ctrl.signal.aborted) setError(messageOf(err));
      return null;
    } finally {
      if (n === seq.current) setBusy(false);
    }
  }

  // Opened at a hit: read pages of the file's hits until the one at start.offset.
  useEffect(() => {
    const start = props.start;
    if (!start) return;
    let cancelled = false;
    void (async () => {
      const hits: SearchHit[] = [];
      let cursor: string | null = null;
      let capped = false;
      for (let pages = 0; pages < MAX_SEEK_PAGES; pages++) {
        const page = await fetchPage(start.query, cursor ?? undefined);
        if (!page || cancelled) return;
        hits.push(...page.hits);
        cursor = page.cursor;
        capped ||= page.capped;
        if (cursor === null || hits.some((h) => h.offset >= start.offset)) break;
      }
      const at = hits.findIndex((h) => h.offset >= start.offset);
      show({ query: start.query, hits, current: at >= 0 ? at : 0, cursor, capped });
    })();
    return () => {
      cancelled = true;
      inFlight.current?.abort();
    };
    // On mount only: the preview remounts for every jump.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const query = draft.trim();
    if (!query) return;
    const page = await fetchPage(query, undefined);
    if (page) show({ query, hits: page.hits, current: 0, cursor: page.cursor, capped: page.capped });
  }

  async function next() {
    if (!find) return;
    if (find.current + 1 < find.hits.length) return show({ ...find, current: find.current + 1 });
    if (find.cursor !== null) {
      // Pages may carry no hits for this file; keep asking until one does or the file ends.
      let cursor: string | null = find.cursor;
      const hits = [...find.hits];
      let capped = find.capped;
      while (cursor !== null) {
        const page = await fetchPage(find.query, cursor);
        if (!page) return;
        hits.push(...page.hits);
        cursor = page.cursor;
        capped ||= page.capped;
        if (page.hits.length > 0) break;
      }
      const current = hits.length > find.hits.length ? find.hits.length : 0;
      return show({ ...find, hits, cursor, capped, current: hits.length ? current : 0 });
    }
    if (find.hits.length) show({ ...find, current: 0 });
  }

  function prev() {
    if (!find || find.hits.length === 0) return;
    if (find.current > 0) return show({ ...find, current: find.current - 1 });
    // Wrapping to "the last hit" needs all of them.
    if (find.cursor === null) show({ ...find, current: find.hits.length - 1 });
  }

  function close() {
    seq.current++;
    inFlight.current?.abort();
    setBusy(false);
    setDraft("");
    setError(null);
    show(null);
  }

  return (
    <form className="find-bar" role="search" aria-label={t("find.label")} onSubmit={onSubmit}>
      <Search size={14} aria-hidden />
      <input
        className="text-input find-input"
        aria-label={t("find.input")}
        placeholder={t("find.label")}
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape" && find) {
            e.preventDefault();
            close();
          } else if (e.key === "Enter" && find && find.query === draft.trim()) {
            e.preventDefault();
            if (e.shiftKey) prev();
            else void next();
          }
        }}
      />
      <button type="submit" className="btn small" disabled={!draft.trim() || busy}>
        {t("find.find")}
      </button>
      <button type="button" className="icon-btn" aria-label={t("find.previous")} title={t("find.previous")} disabled={!find?.hits.length} onClick={prev}>
        <ChevronUp size={14} aria-hidden />
      </button>
      <button
        type="button"
        className="icon-btn"
        aria-label={t("find.next")}
        title={t("find.next")}
        disabled={!find || (find.hits.length === 0 && find.cursor === null)}
        onClick={() => void next()}
      >
        <ChevronDown size={14} aria-hidden />
      </button>
      <span className="find-count small" data-testid="find-count" aria-live="polite">
        {busy ? <LoaderCircle size={12} className="spin" aria-label={t("find.searching")} /> : find ? findLabel(find) : ""}
      </span>
      {error && (
        <span className="error small" role="alert">
          {error}
        </span>
      )}
      {find && (
        <button type="button" className="icon-btn" aria-label={t("find.close")} title={t("find.close")} onClick={close}>
          <X size={14} aria-hidden />
        </button>
      )}
    </form>
  );
}
