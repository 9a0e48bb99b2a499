import { useTranslation } from "react-i18next";
import { useEffect, useMemo, useRef, useState } from "react";
import type { KeyboardEvent } from "react";
import { X } from "lucide-react";
import { exportConversation } from "../api/conversations";
import type { StoredConversation } from "../api/conversations";
import { NameDialog } from "../ui/NameDialog";
import { messageOf } from "../ui/errors";
import i18n, { currentLanguage } from "../i18n";
import { useConversations, useDeleteConversation, useRenameConversation } from "./conversationQueries";
import { ConversationRow } from "./ConversationRow";
import { groupByDay, timeOfDay } from "./dayGroups";
import type { DayGroup } from "./dayGroups";
import { placeName } from "../ui/placeName";
import { plainTitle } from "./plainTitle";

/** UNDO_MS is how long a deleted conversation can be brought back before the server forgets it. */
const UNDO_MS = 6000;

interface Props {
  /** the chat's folder, for "This folder only" */
  scope: string;
  root: string;
  openId: number | null;
  onOpen: (c: StoredConversation) => void;
  /** the open conversation was deleted */
  onDeleted: (id: number) => void;
  onClose: () => void;
}

function validateTitle(t: string): string | null {
  if (!t.trim()) return i18n.t("conversations:titleEmpty");
  if ([...t].length > 200) return i18n.t("conversations:titleTooLong", { max: 200 });
  return null;
}

/**
 * ConversationList is the panel of stored conversations: every folder's (or
 * the chat folder's only), most recently active first under day headings,
 * with search, rename, export and delete with undo.
 */
export function ConversationList({ scope, root, openId, onOpen, onDeleted, onClose }: Props) {
  const { t } = useTranslation("conversations");
  const { t: tt } = useTranslation("tree");
  const [folderOnly, setFolderOnly] = useState(false);
  const [q, setQ] = useState("");
  const [query, setQuery] = useState("");
  const [renaming, setRenaming] = useState<StoredConversation | null>(null);
  const [pending, setPending] = useState<StoredConversation | null>(null);
  const [error, setError] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const search = useRef<HTMLInputElement>(null);
  const rename = useRenameConversation();
  const { mutateAsync: deleteNow } = useDeleteConversation();

  useEffect(() => search.current?.focus(), []);
  // Typing searches after a pause, not on every key.
  useEffect(() => {
    const t = setTimeout(() => setQuery(q.trim()), 250);
    return () => clearTimeout(t);
  }, [q]);

  const list = useConversations(folderOnly ? scope : null, query);
  const shownTitle = (c: StoredConversation) => plainTitle(c.title) || t("untitled");

  const commitDelete = async (c: StoredConversation) => {
    try {
      await deleteNow(c.id);
    } catch (err) {
      setError(t("cannotDelete", { title: shownTitle(c), error: messageOf(err) }));
    }
    setPending((p) => (p?.id === c.id ? null : p));
  };
  const remove = (c: StoredConversation) => {
    if (pending) void commitDelete(pending);
    if (timer.current) clearTimeout(timer.current);
    setPending(c);
    if (c.id === openId) onDeleted(c.id);
    timer.current = setTimeout(() => void commitDelete(c), UNDO_MS);
  };
  const undo = () => {
    if (timer.current) clearTimeout(timer.current);
    setPending(null);
  };
  // Leaving the list ends the undo window: the delete happens now.
  const pendingRef = useRef(pending);
  pendingRef.current = pending;
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
      if (pendingRef.current) void deleteNow(pendingRef.current.id).catch(() => undefined);
    },
    [deleteNow],
  );

  const download = async (c: StoredConversation) => {
    try {
      const { blob, name } = await exportConversation(c.id);
      const url = URL.createObjectURL(blob);
      const a = document.createElement("a");
      a.href = url;
      a.download = name;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (err) {
      setError(t("cannotExport", { title: shownTitle(c), error: messageOf(err) }));
    }
  };

  const pendingId = pending?.id;
  const locale = currentLanguage();
  const groups = useMemo<DayGroup<StoredConversation>[]>(() => {
    const items = (list.data?.pages ?? []).flatMap((p) => p.items).filter((c) => c.id !== pendingId);
    return groupByDay(items, (c) => c.active_at, new Date(), locale);
  }, [list.data, pendingId, locale]);

  // Escape closes the panel, unless it belongs to a dialog opened from it.
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== "Escape" || renaming || (e.target as Element).closest('[role="dialog"]')) return;
    e.preventDefault();
    onClose();
  };

  return (
    <section className="conversation-list" aria-labelledby="conversation-list-title" onKeyDown={onKeyDown}>
      <div className="conversation-head">
        <h3 id="conversation-list-title" className="conversation-heading">
          {t("conversations")}
        </h3>
        <button type="button" className="icon-btn" aria-label={t("close")} title={t("close")} onClick={onClose}>
          <X size={15} aria-hidden />
        </button>
      </div>
      <div className="conversation-tools">
        <input
          ref={search}
          type="search"
          className="input small"
          placeholder={t("search")}
          aria-label={t("search")}
          value={q}
          onChange={(e) => setQ(e.target.value)}
        />
        <label className="small conversation-filter">
          <input type="checkbox" checked={folderOnly} onChange={(e) => setFolderOnly(e.target.checked)} /> {t("thisFolderOnly")}
        </label>
      </div>
      {pending && (
        <p className="notice small conversation-notice" role="status">
          {t("deleted", { title: shownTitle(pending) })}{" "}
          <button type="button" className="link-btn" onClick={undo}>
            {t("undo")}
          </button>
        </p>
      )}
      {error && (
        <p className="error small conversation-notice" role="alert">
          {error}
        </p>
      )}
      <div className="conversation-scroll">
        {list.isError ? (
          <p className="error small" role="alert">
            {t("cannotLoad", { error: messageOf(list.error) })}
          </p>
        ) : list.isPending ? (
          <p className="muted small">{t("loading")}</p>
        ) : groups.length === 0 ? (
          <p className="muted small">{query ? t("noMatch") : folderOnly ? t("noneHere") : t("none")}</p>
        ) : (
          groups.map((g) => (
            <div key={g.key} role="group" className="conversation-day" aria-labelledby={`conversation-day-${g.key}`}>
              <h4 id={`conversation-day-${g.key}`} className="conversation-day-heading">
                {g.label.kind === "date" ? g.label.text : t(g.label.kind)}
              </h4>
              <ul className="conversation-items">
                {g.items.map((c) => (
                  <ConversationRow
                    key={c.id}
                    conversation={c}
                    title={shownTitle(c)}
                    folder={placeName(c.uri, root, tt("home"))}
                    time={timeOfDay(c.active_at, locale)}
                    current={c.id === openId}
                    onOpen={() => onOpen(c)}
                    onRename={() => setRenaming(c)}
                    onExport={() => void download(c)}
                    onDelete={() => remove(c)}
                  />
                ))}
              </ul>
            </div>
          ))
        )}
        {list.hasNextPage && (
          <button type="button" className="btn small conversation-more" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
            {list.isFetchingNextPage ? t("loading") : t("more")}
          </button>
        )}
      </div>
      {renaming && (
        <NameDialog
          title={t("renameTitle")}
          label={t("titleLabel")}
          initial={renaming.title}
          submitLabel={t("rename")}
          validate={validateTitle}
          onSubmit={async (title) => {
            await rename.mutateAsync({ id: renaming.id, title: title.trim() });
          }}
          onClose={() => setRenaming(null)}
        />
      )}
    </section>
  );
}
