import { useTranslation } from "react-i18next";
import { useEffect, useRef, useState } from "react";
import { Download, MessageSquare, Pencil, Trash2 } from "lucide-react";
import { exportConversation } from "../api/conversations";
import type { StoredConversation } from "../api/conversations";
import { NameDialog } from "../ui/NameDialog";
import { messageOf } from "../ui/errors";
import i18n from "../i18n";
import { useConversations, useDeleteConversation, useRenameConversation } from "./conversationQueries";

/** UNDO_MS is how long a deleted conversation can be brought back before the server forgets it. */
const UNDO_MS = 6000;

interface Props {
  scope: string;
  openId: number | null;
  onOpen: (c: StoredConversation) => void;
  /** the open conversation was deleted */
  onDeleted: (id: number) => void;
  display: (uri: string) => string;
}

function validateTitle(t: string): string | null {
  if (!t.trim()) return i18n.t("conversations:titleEmpty");
  if ([...t].length > 200) return i18n.t("conversations:titleTooLong", { max: 200 });
  return null;
}

/**
 * ConversationList is the stored conversations of the folder (or of all
 * folders), newest first, with search, rename, export and delete with undo.
 */
export function ConversationList({ scope, openId, onOpen, onDeleted, display }: Props) {
  const { t } = useTranslation("conversations");
  const [all, setAll] = useState(false);
  const [q, setQ] = useState("");
  const [query, setQuery] = useState("");
  const [renaming, setRenaming] = useState<StoredConversation | null>(null);
  const [pending, setPending] = useState<StoredConversation | null>(null);
  const [error, setError] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const rename = useRenameConversation();
  const { mutateAsync: deleteNow } = useDeleteConversation();

  // Typing searches after a pause, not on every key.
  useEffect(() => {
    const t = setTimeout(() => setQuery(q.trim()), 250);
    return () => clearTimeout(t);
  }, [q]);

  const list = useConversations(all ? null : scope, query);

  const commitDelete = async (c: StoredConversation) => {
    try {
      await deleteNow(c.id);
    } catch (err) {
      setError(t("cannotDelete", { title: c.title, error: messageOf(err) }));
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
      setError(t("cannotExport", { title: c.title, error: messageOf(err) }));
    }
  };

  const items = (list.data?.items ?? []).filter((c) => c.id !== pending?.id);
  return (
    <section className="conversation-list" aria-label={t("conversations")}>
      <div className="conversation-tools">
        <input
          type="search"
          className="input small"
          placeholder={t("search")}
          aria-label={t("search")}
          value={q}
          onChange={(e) => setQ(e.target.value)}
        />
        <label className="small">
          <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} /> {t("allFolders")}
        </label>
      </div>
      {pending && (
        <p className="notice small" role="status">
          {t("deleted", { title: pending.title })}{" "}
          <button type="button" className="link-btn" onClick={undo}>
            {t("undo")}
          </button>
        </p>
      )}
      {error && (
        <p className="error small" role="alert">
          {error}
        </p>
      )}
      {list.isError ? (
        <p className="error small" role="alert">
          {t("cannotLoad", { error: messageOf(list.error) })}
        </p>
      ) : list.isPending ? (
        <p className="muted small">{t("loading")}</p>
      ) : items.length === 0 ? (
        <p className="muted small">{query ? t("noMatch") : t("none")}</p>
      ) : (
        <ul className="conversation-items">
          {items.map((c) => (
            <li key={c.id} className={c.id === openId ? "current" : undefined} data-conversation-id={c.id}>
              <button
                type="button"
                className="link-btn conversation-open ellipsis"
                aria-current={c.id === openId ? "true" : undefined}
                title={all ? display(c.uri) : undefined}
                onClick={() => onOpen(c)}
              >
                <MessageSquare size={12} aria-hidden /> {c.title || t("untitled")}
              </button>
              {all && <code className="muted small ellipsis">{display(c.uri)}</code>}
              <button type="button" className="icon-btn" aria-label={t("renameOne", { title: c.title })} title={t("rename")} onClick={() => setRenaming(c)}>
                <Pencil size={12} aria-hidden />
              </button>
              <button type="button" className="icon-btn" aria-label={t("exportOne", { title: c.title })} title={t("export")} onClick={() => void download(c)}>
                <Download size={12} aria-hidden />
              </button>
              <button type="button" className="icon-btn" aria-label={t("deleteOne", { title: c.title })} title={t("delete")} onClick={() => remove(c)}>
                <Trash2 size={12} aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      )}
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
