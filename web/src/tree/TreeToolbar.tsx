import { FileClock, FolderPlus, Pencil, RefreshCw, Trash, TrashOff, Upload } from "lucide-react";

/** TreeToolbar holds the tree's actions; rename and delete act on the selection. */
export function TreeToolbar(props: {
  canEdit: boolean;
  refreshing: boolean;
  onRefresh: () => void;
  onNewFolder: () => void;
  onUpload: () => void;
  onRename: () => void;
  onDelete: () => void;
  /** versions of the selected file; absent when a folder (or nothing) is selected */
  onVersions?: () => void;
  onTrash: () => void;
}) {
  return (
    <div className="toolbar" role="toolbar" aria-label="File actions">
      <button type="button" className="icon-btn" title="Refresh" aria-label="Refresh" onClick={props.onRefresh}>
        <RefreshCw size={15} className={props.refreshing ? "spin" : undefined} aria-hidden />
      </button>
      <button type="button" className="icon-btn" title="New folder" aria-label="New folder" onClick={props.onNewFolder}>
        <FolderPlus size={15} aria-hidden />
      </button>
      <button type="button" className="icon-btn" title="Upload files" aria-label="Upload files" onClick={props.onUpload}>
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
      <span className="toolbar-sep" />
      <button type="button" className="icon-btn" title="Trash" aria-label="Trash" onClick={props.onTrash}>
        <TrashOff size={15} aria-hidden />
      </button>
    </div>
  );
}
