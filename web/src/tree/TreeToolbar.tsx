import { BookOpen, FileClock, FolderPlus, Pencil, RefreshCw, Share2, Trash, TrashOff, Upload } from "lucide-react";

/**
 * TreeToolbar holds the tree's actions; rename, delete, versions and share act
 * on the selection. Write actions are disabled, not hidden, in a folder shared
 * read-only, so the bar keeps its layout and its buttons their places.
 */
export function TreeToolbar(props: {
  /** rename and delete the selection */
  canEdit: boolean;
  /** new folder and upload into the current folder */
  canWrite: boolean;
  refreshing: boolean;
  onRefresh: () => void;
  onNewFolder: () => void;
  onUpload: () => void;
  onRename: () => void;
  onDelete: () => void;
  /** versions of the selected file; absent when a folder (or nothing) is selected */
  onVersions?: () => void;
  /** share the selection; absent unless the user owns it */
  onShare?: () => void;
  /** open the selected folder's compiled overview; absent when it has none */
  onOpenOverview?: () => void;
  onTrash: () => void;
}) {
  return (
    <div className="toolbar" role="toolbar" aria-label="File actions">
      <button type="button" className="icon-btn" title="Refresh" aria-label="Refresh" onClick={props.onRefresh}>
        <RefreshCw size={15} className={props.refreshing ? "spin" : undefined} aria-hidden />
      </button>
      <button
        type="button"
        className="icon-btn"
        title={props.canWrite ? "New folder" : "New folder (this folder is shared with you read-only)"}
        aria-label="New folder"
        disabled={!props.canWrite}
        onClick={props.onNewFolder}
      >
        <FolderPlus size={15} aria-hidden />
      </button>
      <button
        type="button"
        className="icon-btn"
        title={props.canWrite ? "Upload files" : "Upload files (this folder is shared with you read-only)"}
        aria-label="Upload files"
        disabled={!props.canWrite}
        onClick={props.onUpload}
      >
        <Upload size={15} aria-hidden />
      </button>
      <span className="toolbar-sep" />
      <button
        type="button"
        className="icon-btn"
        title="Rename (F2)"
        aria-label="Rename"
        disabled={!props.canEdit}
        onClick={props.onRename}
      >
        <Pencil size={15} aria-hidden />
      </button>
      <button
        type="button"
        className="icon-btn"
        title="Delete (Del)"
        aria-label="Delete"
        disabled={!props.canEdit}
        onClick={props.onDelete}
      >
        <Trash size={15} aria-hidden />
      </button>
      <button
        type="button"
        className="icon-btn"
        title="Versions"
        aria-label="Versions"
        disabled={!props.onVersions}
        onClick={props.onVersions}
      >
        <FileClock size={15} aria-hidden />
      </button>
      <button type="button" className="icon-btn" title="Share" aria-label="Share" disabled={!props.onShare} onClick={props.onShare}>
        <Share2 size={15} aria-hidden />
      </button>
      <button
        type="button"
        className="icon-btn"
        title={props.onOpenOverview ? "Open overview" : "Open overview (select a compiled folder)"}
        aria-label="Open overview"
        disabled={!props.onOpenOverview}
        onClick={props.onOpenOverview}
      >
        <BookOpen size={15} aria-hidden />
      </button>
      <span className="toolbar-sep" />
      <button type="button" className="icon-btn" title="Trash" aria-label="Trash" onClick={props.onTrash}>
        <TrashOff size={15} aria-hidden />
      </button>
    </div>
  );
}
