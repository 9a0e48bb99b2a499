import { useTranslation } from "react-i18next";
import { Download, Folder, LoaderCircle, Pencil, Trash2 } from "lucide-react";
import type { StoredConversation } from "../api/conversations";

interface Props {
  conversation: StoredConversation;
  /** the title without Markdown */
  title: string;
  /** the folder it is about, as the tree names it */
  folder: string;
  /** when it was last active, as a time of day */
  time: string;
  current: boolean;
  onOpen: () => void;
  onRename: () => void;
  onExport: () => void;
  onDelete: () => void;
}

/** ConversationRow is one stored conversation: its title, folder and time, and what can be done with it. */
export function ConversationRow({ conversation: c, title, folder, time, current, onOpen, onRename, onExport, onDelete }: Props) {
  const { t } = useTranslation("conversations");
  return (
    <li className={current ? "current" : undefined} data-conversation-id={c.id}>
      <button type="button" className="conversation-open" aria-current={current ? "true" : undefined} title={title} onClick={onOpen}>
        <span className="conversation-title">{title}</span>
        <span className="conversation-meta muted small">
          <Folder size={11} aria-hidden />
          <span className="conversation-folder">{folder}</span>
          {c.answering_message_id ? (
            <span className="conversation-answering" data-answering>
              <LoaderCircle size={11} className="spin" aria-hidden />
              {t("answering")}
            </span>
          ) : (
            <time dateTime={c.active_at}>{time}</time>
          )}
        </span>
      </button>
      <span className="conversation-actions">
        <button type="button" className="icon-btn" aria-label={t("renameOne", { title })} title={t("rename")} onClick={onRename}>
          <Pencil size={12} aria-hidden />
        </button>
        <button type="button" className="icon-btn" aria-label={t("exportOne", { title })} title={t("export")} onClick={onExport}>
          <Download size={12} aria-hidden />
        </button>
        <button type="button" className="icon-btn" aria-label={t("deleteOne", { title })} title={t("delete")} onClick={onDelete}>
          <Trash2 size={12} aria-hidden />
        </button>
      </span>
    </li>
  );
}
