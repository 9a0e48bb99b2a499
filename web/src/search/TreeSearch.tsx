// The search box at the top of the tree: an ARIA combobox whose listbox
// shows name matches, then content hits grouped by file with their snippets
// (a ranked search's files best first, each with its best passages), and
// the status line says how many and how the server matched them.
// Focus stays in the box; arrows move aria-activedescendant over the
// options, Enter picks, Escape closes (and a second Escape leaves the box).

import { useTranslation } from "react-i18next";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import type { KeyboardEvent, ReactNode, RefObject } from "react";
import { FileText, Folder, LoaderCircle, Search, X } from "lucide-react";
import { isFolderMatch } from "../api/search";
import type { ContentHit, NameMatch } from "../api/search";
import { nameOf, parentURI, relativePath } from "../api/uri";
import { countLabel, findTextOf, groupByFile, modeLabel, moveActive, optionsOf, snippetParts } from "./model";
import type { FileGroup, Option, Results } from "./model";
import type { MultiWordMode } from "./mode";
import { useTreeSearch } from "./useTreeSearch";

export interface TreeSearchProps {
  /** the folder searched */
  scope: string;
  /** how the box names the scope: "Home", a folder's name */
  scopeLabel: string;
  inputRef?: RefObject<HTMLInputElement | null>;
  onOpenName: (match: NameMatch) => void;
  /**
   * find is the text to find in the file at the hit: a literal search's
   * query, or a ranked passage's first marked word (none when it marks none)
   */
  onOpenHit: (hit: ContentHit, find: string | undefined) => void;
  /** the mode a query of several words runs in (default ranked) */
  multiWordMode?: MultiWordMode;
  /** Ctrl+K was pressed: make the box visible (the narrow layout shows another panel) */
  onSummon?: () => void;
  /** Escape in an empty, closed box: hand focus back (to the tree) */
  onExit?: () => void;
}

/** isSearchShortcut is Ctrl+K (or ⌘K). */
export function isSearchShortcut(e: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean }): boolean {
  return (e.key === "k" || e.key === "K") && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey;
}

export function TreeSearch(props: TreeSearchProps) {
  const { t } = useTranslation("search");
  const { scope, onSummon } = props;
  const [draft, setDraft] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const { view, more } = useTreeSearch(scope, draft, { multiWord: props.multiWordMode });
  const ownRef = useRef<HTMLInputElement>(null);
  const input = props.inputRef ?? ownRef;
  const id = useId();
  const listID = `${id}-list`;

  const results = view.status === "ready" ? view.results : null;
  const options = useMemo(() => (results ? optionsOf(results) : []), [results]);
  // A new search starts with no option active; More keeps the place.
  const [activeFor, setActiveFor] = useState(results?.key);
  if (results?.key !== activeFor) {
    setActiveFor(results?.key);
    setActive(-1);
  }
  const optionID = (i: number) => `${id}-opt-${i}`;
  const showList = open && view.status !== "idle";
  const activeID = showList && active >= 0 && active < options.length ? optionID(active) : undefined;

  useEffect(() => {
    if (activeID) document.getElementById(activeID)?.scrollIntoView?.({ block: "nearest" });
  }, [activeID]);

  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (!isSearchShortcut(e) || e.defaultPrevented || document.querySelector("dialog[open]")) return;
      e.preventDefault();
      onSummon?.();
      const focus = () => {
        input.current?.focus();
        input.current?.select();
        setOpen(true);
      };
      focus();
      // A panel the summon just unhid takes focus once it has rendered.
      requestAnimationFrame(focus);
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, [input, onSummon]);

  function pick(o: Option | undefined) {
    if (!o || !results) return;
    setOpen(false);
    if (o.kind === "name") props.onOpenName(o.match);
    else props.onOpenHit(o.hit, findTextOf(results.key, o.hit));
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    switch (e.key) {
      case "ArrowDown":
      case "ArrowUp":
        if (!open) setOpen(true);
        else setActive((a) => moveActive(a, options.length, e.key as "ArrowDown" | "ArrowUp"));
        break;
      case "Enter":
        if (!showList) setOpen(true);
        else pick(options[active >= 0 ? active : 0]);
        break;
      case "Escape":
        if (showList) setOpen(false);
        else if (draft) setDraft("");
        else props.onExit?.();
        break;
      default:
        return;
    }
    e.preventDefault();
  }

  return (
    <div
      className="tree-search"
      role="search"
      aria-label={t("label")}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <div className="tree-search-field">
        <Search size={14} aria-hidden className="muted" />
        <input
          ref={input}
          className="text-input tree-search-input"
          type="text"
          role="combobox"
          aria-label={t("searchIn", { scope: props.scopeLabel })}
          aria-expanded={showList && options.length > 0}
          aria-controls={showList && options.length > 0 ? listID : undefined}
          aria-autocomplete="list"
          aria-activedescendant={activeID}
          aria-keyshortcuts="Control+K"
          placeholder={t("placeholder", { scope: props.scopeLabel })}
          autoComplete="off"
          spellCheck={false}
          value={draft}
          onChange={(e) => {
            setDraft(e.target.value);
            setOpen(true);
          }}
          onFocus={() => draft && setOpen(true)}
          onKeyDown={onKeyDown}
        />
        {draft && (
          <button
            type="button"
            className="icon-btn"
            aria-label={t("clear")}
            title={t("clear")}
            onClick={() => {
              setDraft("");
              input.current?.focus();
            }}
          >
            <X size={14} aria-hidden />
          </button>
        )}
      </div>
      <div className="tree-search-popup" hidden={!showList}>
        <div className="tree-search-status small" role="status">
          <span className="tree-search-count" data-testid="tree-search-count">
            {!showList ? "" : view.status === "loading" ? (
              <>
                <LoaderCircle size={12} className="spin" aria-hidden /> {t("searching")}
              </>
            ) : view.status === "error" ? (
              <span className="error">{view.message}</span>
            ) : view.status === "ready" ? (
              countLabel(view.results)
            ) : (
              ""
            )}
          </span>
          {showList && results && <ModeLabel results={results} />}
        </div>
        {showList && results && options.length > 0 && (
          <ResultList
            id={listID}
            results={results}
            active={active}
            optionID={optionID}
            scope={scope}
            onPick={(i) => pick(options[i])}
            onHover={setActive}
          />
        )}
        {showList && results?.note && <p className="muted small tree-search-note">{results.note}</p>}
        {showList && view.status === "ready" && view.results.cursor !== null && (
          <div className="tree-search-more">
            <button type="button" className="btn small" disabled={view.more === "loading"} onClick={more}>
              {view.more === "loading" ? t("common:loading") : t("more")}
            </button>
            {typeof view.more === "object" && (
              <span className="error small" role="alert">
                {view.more.error}
              </span>
            )}
          </div>
        )}
      </div>
    </div>
  );
}

/** ModeLabel says how the server matched: by relevance, or the exact text. */
function ModeLabel({ results }: { results: Results }) {
  const { t } = useTranslation("search");
  const label = modeLabel(results);
  if (!label) return null;
  return (
    <>
      <span className="sr-only"> · </span>
      <span
        className="tree-search-mode"
        data-testid="tree-search-mode"
        title={modeHint(results.mode, t)}
      >
        {label}
      </span>
    </>
  );
}

function ResultList(props: {
  id: string;
  results: Results;
  active: number;
  optionID: (i: number) => string;
  scope: string;
  onPick: (i: number) => void;
  onHover: (i: number) => void;
}) {
  const { t } = useTranslation("search");
  const { results, active, optionID, scope } = props;
  const where = (uri: string) => relativePath(parentURI(uri) ?? uri, scope) || "";
  let i = 0;
  const option = (key: string, body: ReactNode, extra?: string) => {
    const n = i++;
    return (
      <div
        key={key}
        id={optionID(n)}
        role="option"
        aria-selected={n === active}
        className={`tree-search-option${extra ? ` ${extra}` : ""}`}
        // Keep focus in the box: a click picks without blurring it first.
        onMouseDown={(e) => e.preventDefault()}
        onMouseMove={() => n !== active && props.onHover(n)}
        onClick={() => props.onPick(n)}
      >
        {body}
      </div>
    );
  };
  const groupLabel = (g: FileGroup) => {
    const label = where(g.uri) ? t("fileIn", { name: nameOf(g.uri), folder: where(g.uri) }) : nameOf(g.uri);
    return g.generated ? `${label} (${t("common:generated")})` : label;
  };
  return (
    <div className="tree-search-list" role="listbox" id={props.id} aria-label={t("resultsFor", { q: results.key.q })}>
      {results.names.length > 0 && (
        <div role="group" aria-label={t("names")}>
          <div className="tree-search-heading" aria-hidden="true">
            {t("names")}
          </div>
          {results.names.map((m) =>
            option(
              `n:${m.uri}`,
              <>
                {isFolderMatch(m) ? <Folder size={13} aria-hidden /> : <FileText size={13} aria-hidden />}
                <span className="ellipsis">{m.name}</span>
                <span className="muted small ellipsis">{where(m.uri)}</span>
              </>,
              "named",
            ),
          )}
        </div>
      )}
      {groupByFile(results.hits).map((g) => (
        <div key={g.uri} role="group" aria-label={groupLabel(g)}>
          <div className="tree-search-heading" aria-hidden="true">
            <FileText size={13} aria-hidden />
            <span className="ellipsis">{nameOf(g.uri)}</span>
            <span className="muted small ellipsis">{where(g.uri)}</span>
            {g.generated && <span className="badge generated">{t("common:generated")}</span>}
          </div>
          {g.hits.map((h) =>
            option(
              `h:${h.uri}:${h.offset}`,
              <>
                {h.line !== undefined && <span className="tree-search-line muted small">L{h.line}</span>}
                <span className="tree-search-snippet">
                  {snippetParts(h.snippet).map((p, k) => (p.mark ? <mark key={k}>{p.text}</mark> : <span key={k}>{p.text}</span>))}
                </span>
              </>,
              "content",
            ),
          )}
        </div>
      ))}
    </div>
  );
}

/** modeHint explains a mode label on hover. */
function modeHint(mode: Results["mode"], t: (key: string) => string): string {
  switch (mode) {
    case "ranked":
      return t("mode.rankedHint");
    case "hybrid":
    case "meaning":
      return t("mode.hybridHint");
    default:
      return t("mode.literalHint");
  }
}
