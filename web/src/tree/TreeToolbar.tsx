import { useTranslation } from "react-i18next";
import { BookOpen, CopyPlus, FileClock, FolderPlus, FolderSync, FolderUp, Pencil, RefreshCw, Share2, Trash, TrashOff, Upload } from "lucide-react";

/**
 * TreeToolbar holds the tree's actions; rename, delete, versions, share and
 * copy to edit act on the selection. Write actions are disabled, not hidden, in a folder shared
 * read-only, so the bar keeps its layout and its buttons their places.
 */
export function TreeToolbar(props: {
  /** delete the selection */
  canEdit: boolean;
  /** rename the selection: canEdit, and not a file compile made */
  canRename: boolean;
  /** new folder and upload into the current folder */
  canWrite: boolean;
  refreshing: boolean;
  onRefresh: () => void;
  onNewFolder: () => void;
  onUpload: () => void;
  /** pick a folder: its files with their subfolders */
  onUploadFolder: () => void;
  onRename: () => void;
  onDelete: () => void;
  /** versions of the selected file; absent when a folder (or nothing) is selected */
  onVersions?: () => void;
  /** copy the selected generated file to an ordinary one; absent unless compile made it */
  onCopyToEdit?: () => void;
  /** share the selection; absent unless the user owns it */
  onShare?: () => void;
  /** open the selected folder's compiled overview; absent when it has none */
  onOpenOverview?: () => void;
  /** keep the selected folder compiled; absent unless it is a folder of the user's own */
  onKeepCompiled?: () => void;
  onTrash: () => void;
}) {
  const { t } = useTranslation("tree");
  return (
    <div className="toolbar" role="toolbar" aria-label={t("toolbar.label")}>
      <button type="button" className="icon-btn" title={t("toolbar.refresh")} aria-label={t("toolbar.refresh")} onClick={props.onRefresh}>
        <RefreshCw size={15} className={props.refreshing ? "spin" : undefined} aria-hidden />
      </button>
      <button
        type="button"
        className="icon-btn"
        title={props.canWrite ? t("newFolder") : t("toolbar.newFolderReadOnly")}
        aria-label={t("newFolder")}
        disabled={!props.canWrite}
        onClick={props.onNewFolder}
      >
        <FolderPlus size={15} aria-hidden />
      </button>
      <button
        type="button"
        className="icon-btn"
        title={props.canWrite ? t("toolbar.upload") : t("toolbar.uploadReadOnly")}
        aria-label={t("toolbar.upload")}
        disabled={!props.canWrite}
        onClick={props.onUpload}
      >
        <Upload size={15} aria-hidden />
      </button>
      <button
        type="button"
        className="icon-btn"
        title={props.canWrite ? t("toolbar.uploadFolder") : t("toolbar.uploadFolderReadOnly")}
        aria-label={t("toolbar.uploadFolder")}
        disabled={!props.canWrite}
        onClick={props.onUploadFolder}
      >
        <FolderUp size={15} aria-hidden />
      </button>
      <span className="toolbar-sep" />
      <button
        type="button"
        className="icon-btn"
        title={props.canEdit && !props.canRename ? t("toolbar.renameGenerated") : t("toolbar.renameKey")}
        aria-label={t("rename")}
        disabled={!props.canRename}
        onClick={props.onRename}
      >
        <Pencil size={15} aria-hidden />
      </button>
      <button
        type="button"
        className="icon-btn"
        title={props.onCopyToEdit ? t("toolbar.copyToEditTitle") : t("toolbar.copyToEditHint")}
        aria-label={t("toolbar.copyToEdit")}
        disabled={!props.onCopyToEdit}
        onClick={props.onCopyToEdit}
      >
        <CopyPlus size={15} aria-hidden />
      </button>
      <button
        type="button"
        className="icon-btn"
        title={t("toolbar.deleteKey")}
        aria-label={t("delete")}
        disabled={!props.canEdit}
        onClick={props.onDelete}
      >
        <Trash size={15} aria-hidden />
      </button>
      <button
        type="button"
        className="icon-btn"
        title={t("toolbar.versions")}
        aria-label={t("toolbar.versions")}
        disabled={!props.onVersions}
        onClick={props.onVersions}
      >
        <FileClock size={15} aria-hidden />
      </button>
      <button type="button" className="icon-btn" title={t("toolbar.share")} aria-label={t("toolbar.share")} disabled={!props.onShare} onClick={props.onShare}>
        <Share2 size={15} aria-hidden />
      </button>
      <button
        type="button"
        className="icon-btn"
        title={props.onOpenOverview ? t("toolbar.overview") : t("toolbar.overviewHint")}
        aria-label={t("toolbar.overview")}
        disabled={!props.onOpenOverview}
        onClick={props.onOpenOverview}
      >
        <BookOpen size={15} aria-hidden />
      </button>
      <button
        type="button"
        className="icon-btn"
        title={props.onKeepCompiled ? t("toolbar.keepCompiled") : t("toolbar.keepCompiledHint")}
        aria-label={t("toolbar.keepCompiled")}
        disabled={!props.onKeepCompiled}
        onClick={props.onKeepCompiled}
      >
        <FolderSync size={15} aria-hidden />
      </button>
      <span className="toolbar-sep" />
      <button type="button" className="icon-btn" title={t("toolbar.trash")} aria-label={t("toolbar.trash")} onClick={props.onTrash}>
        <TrashOff size={15} aria-hidden />
      </button>
    </div>
  );
}
