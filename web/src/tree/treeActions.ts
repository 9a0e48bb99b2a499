// The tree's actions as one table: the toolbar renders it in one loop and
// the tree's keys (F2, Delete) run the same entries, so a rule for when an
// action is offered lives in one place.

import { BookOpen, CopyPlus, FileClock, FolderPlus, FolderSync, FolderUp, Pencil, RefreshCw, Share2, Trash, TrashOff, Upload } from "lucide-react";
import type { LucideIcon } from "lucide-react";
import { folderOf } from "../api/uri";
import { canCopyToEdit, canModify, canRename, canShare, canWriteIn } from "./access";
import type { FolderState } from "./flatten";
import { canKeepCompiled } from "./KeepCompiledDialog";
import { overviewOf } from "./layers";

/** TreeSelection is what the actions decide by: the selection and what the caller may do with it. */
export interface TreeSelection {
  uri: string | null;
  /** where a new folder or an upload goes: the selected folder, the selected file's, or the root */
  folder: string;
  /** new folder and upload into folder */
  canWrite: boolean;
  /** delete the selection */
  canEdit: boolean;
  /** rename the selection: canEdit, and not a file compile made */
  canRename: boolean;
  /** copy the selected generated file to an ordinary one */
  canCopyToEdit: boolean;
  /** the user owns the selection */
  canShare: boolean;
  /** a folder of the user's own outside wiki/ */
  canKeepCompiled: boolean;
  /** the selected folder's compiled overview */
  overview?: string;
}

/** treeSelection reads what the loaded listings say about the selected node. */
export function treeSelection(uri: string | null, root: string, folders: Map<string, FolderState>): TreeSelection {
  const folder = uri ? folderOf(uri) : root;
  return {
    uri,
    folder,
    canWrite: canWriteIn(folder, root, folders),
    canEdit: uri !== null && canModify(uri, root, folders),
    canRename: uri !== null && canRename(uri, root, folders),
    canCopyToEdit: canCopyToEdit(uri, folders),
    canShare: uri !== null && canShare(uri, root),
    canKeepCompiled: canKeepCompiled(uri, root),
    overview: overviewOf(uri, folders),
  };
}

/** TreeDialog is the dialog an action opens over the tree. */
export type TreeDialog =
  | { kind: "new-folder"; parent: string }
  | { kind: "rename"; uri: string }
  | { kind: "delete"; uri: string }
  | { kind: "versions"; uri: string }
  | { kind: "share"; uri: string }
  | { kind: "keep"; uri: string }
  | { kind: "trash" };

/** TreeActionHost is what the tree panel does for an action. */
export interface TreeActionHost {
  open: (dialog: TreeDialog) => void;
  refresh: () => void;
  /** pick files, or a folder with its subfolders, to upload into the current folder */
  pick: (what: "files" | "folder") => void;
  copyToEdit: (uri: string) => void;
  openFile: (uri: string) => void;
}

export interface TreeAction {
  id: string;
  /** the key (tree namespace) of the button's accessible name */
  label: string;
  /** the key of its tooltip while enabled, when that says more than the label (a shortcut) */
  title?: string;
  /** the key of its tooltip while disabled, when that says why (default: title) */
  offTitle?: string | ((s: TreeSelection) => string);
  icon: LucideIcon;
  /** a separator stands before it */
  separated?: boolean;
  /** its icon turns while listings load */
  spins?: boolean;
  /** the key that runs it in the tree */
  key?: string;
  enabled: (s: TreeSelection) => boolean;
  run: (s: TreeSelection, host: TreeActionHost) => void;
}

/** tooltipOf is the key of an action's tooltip for the selection. */
export function tooltipOf(a: TreeAction, s: TreeSelection): string {
  const on = a.title ?? a.label;
  if (a.enabled(s)) return on;
  return typeof a.offTitle === "function" ? a.offTitle(s) : (a.offTitle ?? on);
}

const always = () => true;
const writable = (s: TreeSelection) => s.canWrite;

// Write actions are disabled, not hidden, where the user may not write, so
// the bar keeps its layout and its buttons their places.
export const TREE_ACTIONS: readonly TreeAction[] = [
  { id: "refresh", label: "toolbar.refresh", icon: RefreshCw, spins: true, enabled: always, run: (_, h) => h.refresh() },
  {
    id: "new-folder",
    label: "newFolder",
    offTitle: "toolbar.newFolderReadOnly",
    icon: FolderPlus,
    enabled: writable,
    run: (s, h) => h.open({ kind: "new-folder", parent: s.folder }),
  },
  { id: "upload", label: "toolbar.upload", offTitle: "toolbar.uploadReadOnly", icon: Upload, enabled: writable, run: (_, h) => h.pick("files") },
  {
    id: "upload-folder",
    label: "toolbar.uploadFolder",
    offTitle: "toolbar.uploadFolderReadOnly",
    icon: FolderUp,
    enabled: writable,
    run: (_, h) => h.pick("folder"),
  },
  {
    id: "rename",
    label: "rename",
    title: "toolbar.renameKey",
    // Off on a node the user may delete: it is a file compile made.
    offTitle: (s) => (s.canEdit ? "toolbar.renameGenerated" : "toolbar.renameKey"),
    icon: Pencil,
    separated: true,
    key: "F2",
    enabled: (s) => s.canRename,
    run: (s, h) => s.uri && h.open({ kind: "rename", uri: s.uri }),
  },
  {
    id: "copy-to-edit",
    label: "toolbar.copyToEdit",
    title: "toolbar.copyToEditTitle",
    offTitle: "toolbar.copyToEditHint",
    icon: CopyPlus,
    enabled: (s) => s.canCopyToEdit,
    run: (s, h) => s.uri && h.copyToEdit(s.uri),
  },
  {
    id: "delete",
    label: "delete",
    title: "toolbar.deleteKey",
    icon: Trash,
    key: "Delete",
    enabled: (s) => s.canEdit,
    run: (s, h) => s.uri && h.open({ kind: "delete", uri: s.uri }),
  },
  {
    id: "versions",
    label: "toolbar.versions",
    icon: FileClock,
    enabled: (s) => s.uri !== null && !s.uri.endsWith("/"),
    run: (s, h) => s.uri && h.open({ kind: "versions", uri: s.uri }),
  },
  { id: "share", label: "toolbar.share", icon: Share2, enabled: (s) => s.canShare, run: (s, h) => s.uri && h.open({ kind: "share", uri: s.uri }) },
  {
    id: "overview",
    label: "toolbar.overview",
    offTitle: "toolbar.overviewHint",
    icon: BookOpen,
    enabled: (s) => Boolean(s.overview),
    run: (s, h) => s.overview && h.openFile(s.overview),
  },
  {
    id: "keep-compiled",
    label: "toolbar.keepCompiled",
    offTitle: "toolbar.keepCompiledHint",
    icon: FolderSync,
    enabled: (s) => s.canKeepCompiled,
    run: (s, h) => s.uri && h.open({ kind: "keep", uri: s.uri }),
  },
  { id: "trash", label: "toolbar.trash", icon: TrashOff, separated: true, enabled: always, run: (_, h) => h.open({ kind: "trash" }) },
];

/** actionForKey is the action a key in the tree stands for, if any. */
export function actionForKey(key: string): TreeAction | undefined {
  return TREE_ACTIONS.find((a) => a.key === key);
}
