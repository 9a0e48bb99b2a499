// The tree's actions as one table: the toolbar renders its icons in one loop
// (Compile… stands in words beside the panel's title), the rows' context menu
// lists some of them, and the tree's keys (F2, Delete) run the same entries,
// so a rule for when an action is offered lives in one place.

import {
  BookOpen,
  CopyPlus,
  Download,
  FileClock,
  FolderInput,
  FolderPlus,
  FolderSync,
  FolderUp,
  Pencil,
  RefreshCw,
  Share2,
  Trash,
  TrashOff,
  Upload,
  WandSparkles,
} from "lucide-react";
import type { LucideIcon } from "lucide-react";
import { SHARED_ROOT, folderOf, isFolderURI } from "../api/uri";
import { canCopyToEdit, canModify, canRename, canShare, canWriteIn, isGenerated } from "./access";
import type { FolderState } from "./flatten";
import { canKeepCompiled } from "./KeepCompiledDialog";
import { overviewOf } from "./layers";

/** TreeSelection is what the actions decide by: the selection and what the caller may do with it. */
export interface TreeSelection {
  /** the current row: the one the preview shows */
  uri: string | null;
  /** every selected row in view order: the current one alone, or what Ctrl/Shift-clicks picked */
  uris: readonly string[];
  /** where a new folder or an upload goes: the selected folder, the selected file's, or the root */
  folder: string;
  /** new folder and upload into folder */
  canWrite: boolean;
  /** delete the selection (every row of it) */
  canEdit: boolean;
  /** rename the selection: one row, canEdit, and not a file compile made */
  canRename: boolean;
  /** move the selection to another folder: canEdit, and none of it made by compile */
  canMove: boolean;
  /** copy the selected generated file to an ordinary one */
  canCopyToEdit: boolean;
  /** the user owns the selection (one row) */
  canShare: boolean;
  /** a folder of the user's own outside wiki/ (one row) */
  canKeepCompiled: boolean;
  /** something in the selection can be compiled: a raw file or a folder (nothing selected: the home folder) */
  canCompile: boolean;
  /** every selected row is a file */
  canDownload: boolean;
  /** the selected folder's compiled overview */
  overview?: string;
}

/**
 * treeSelection reads what the loaded listings say about the current node
 * uri and the selected rows uris (default: uri alone).
 */
export function treeSelection(
  uri: string | null,
  root: string,
  folders: Map<string, FolderState>,
  uris: readonly string[] = uri ? [uri] : [],
): TreeSelection {
  const folder = uri ? folderOf(uri) : root;
  const one = soleOf({ uri, uris });
  const some = uris.length > 0;
  return {
    uri,
    uris,
    folder,
    canWrite: canWriteIn(folder, root, folders),
    canEdit: some && uris.every((u) => canModify(u, root, folders)),
    canRename: one !== null && canRename(one, root, folders),
    canMove: some && uris.every((u) => canRename(u, root, folders)),
    canCopyToEdit: one !== null && canCopyToEdit(one, folders),
    canShare: one !== null && canShare(one, root),
    canKeepCompiled: one !== null && canKeepCompiled(one, root),
    canCompile: !some || uris.some((u) => u !== SHARED_ROOT && (isFolderURI(u) || !isGenerated(u, folders))),
    canDownload: some && uris.every((u) => !isFolderURI(u)),
    overview: one !== null ? overviewOf(one, folders) : undefined,
  };
}

/** soleOf is the one row the selection is, or null when it is several rows or none. */
export function soleOf(s: Pick<TreeSelection, "uri" | "uris">): string | null {
  return s.uris.length <= 1 ? (s.uris[0] ?? s.uri) : null;
}

/** TreeDialog is the dialog an action opens over the tree. */
export type TreeDialog =
  | { kind: "new-folder"; parent: string }
  | { kind: "rename"; uri: string }
  | { kind: "delete"; uris: readonly string[] }
  | { kind: "move"; uris: readonly string[] }
  | { kind: "compile"; uris: readonly string[] }
  | { kind: "tasks" }
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
  /** save the files' bytes */
  download: (uris: readonly string[]) => void;
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
  /** a button named in words beside the panel's title, not an icon of the toolbar: an action to be found at a glance */
  labelled?: boolean;
  /** its icon turns while listings load */
  spins?: boolean;
  /** the key that runs it in the tree */
  key?: string;
  /** it applies to one row: off, and saying so, on a multi-selection */
  single?: boolean;
  /** only in the rows' context menu */
  menuOnly?: boolean;
  /** left out of the context menu where it does not apply (the toolbar shows it off) */
  hiddenInMenu?: (s: TreeSelection) => boolean;
  enabled: (s: TreeSelection) => boolean;
  run: (s: TreeSelection, host: TreeActionHost) => void;
}

/** tooltipOf is the key of an action's tooltip for the selection. */
export function tooltipOf(a: TreeAction, s: TreeSelection): string {
  const on = a.title ?? a.label;
  if (a.enabled(s)) return on;
  if (a.single && s.uris.length > 1) return "toolbar.oneOnly";
  return typeof a.offTitle === "function" ? a.offTitle(s) : (a.offTitle ?? on);
}

const always = () => true;
const withSole = (s: TreeSelection, run: (uri: string) => void) => {
  const uri = soleOf(s);
  if (uri) run(uri);
};
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
    id: "compile",
    label: "toolbar.compile",
    title: "toolbar.compileTitle",
    offTitle: "toolbar.compileHint",
    icon: WandSparkles,
    labelled: true,
    enabled: (s) => s.canCompile,
    run: (s, h) => h.open({ kind: "compile", uris: s.uris }),
  },
  {
    id: "rename",
    single: true,
    label: "rename",
    title: "toolbar.renameKey",
    // Off on a node the user may delete: it is a file compile made.
    offTitle: (s) => (s.canEdit ? "toolbar.renameGenerated" : "toolbar.renameKey"),
    icon: Pencil,
    separated: true,
    key: "F2",
    enabled: (s) => s.canRename,
    run: (s, h) => withSole(s, (uri) => h.open({ kind: "rename", uri })),
  },
  {
    id: "copy-to-edit",
    single: true,
    label: "toolbar.copyToEdit",
    title: "toolbar.copyToEditTitle",
    offTitle: "toolbar.copyToEditHint",
    icon: CopyPlus,
    hiddenInMenu: (s) => !s.canCopyToEdit,
    enabled: (s) => s.canCopyToEdit,
    run: (s, h) => withSole(s, (uri) => h.copyToEdit(uri)),
  },
  {
    id: "delete",
    label: "delete",
    title: "toolbar.deleteKey",
    icon: Trash,
    key: "Delete",
    enabled: (s) => s.canEdit,
    run: (s, h) => s.uris.length > 0 && h.open({ kind: "delete", uris: s.uris }),
  },
  {
    id: "versions",
    single: true,
    label: "toolbar.versions",
    icon: FileClock,
    enabled: (s) => soleOf(s)?.endsWith("/") === false,
    run: (s, h) => withSole(s, (uri) => h.open({ kind: "versions", uri })),
  },
  {
    id: "share",
    single: true,
    label: "toolbar.share",
    icon: Share2,
    enabled: (s) => s.canShare,
    run: (s, h) => withSole(s, (uri) => h.open({ kind: "share", uri })),
  },
  {
    id: "overview",
    single: true,
    label: "toolbar.overview",
    offTitle: "toolbar.overviewHint",
    icon: BookOpen,
    enabled: (s) => Boolean(s.overview),
    run: (s, h) => s.overview && h.openFile(s.overview),
  },
  {
    id: "keep-compiled",
    single: true,
    label: "toolbar.keepCompiled",
    offTitle: "toolbar.keepCompiledHint",
    icon: FolderSync,
    enabled: (s) => s.canKeepCompiled,
    run: (s, h) => withSole(s, (uri) => h.open({ kind: "keep", uri })),
  },
  {
    id: "move",
    label: "toolbar.move",
    offTitle: "toolbar.moveHint",
    icon: FolderInput,
    menuOnly: true,
    enabled: (s) => s.canMove,
    run: (s, h) => s.uris.length > 0 && h.open({ kind: "move", uris: s.uris }),
  },
  {
    id: "download",
    label: "toolbar.download",
    offTitle: "toolbar.downloadHint",
    icon: Download,
    menuOnly: true,
    enabled: (s) => s.canDownload,
    run: (s, h) => h.download(s.uris),
  },
  { id: "trash", label: "toolbar.trash", icon: TrashOff, separated: true, enabled: always, run: (_, h) => h.open({ kind: "trash" }) },
];

/** TOOLBAR_ACTIONS are the toolbar's icon buttons, in order. */
export const TOOLBAR_ACTIONS: readonly TreeAction[] = TREE_ACTIONS.filter((a) => !a.menuOnly && !a.labelled);

/** HEADER_ACTIONS are named in words beside the panel's title. */
export const HEADER_ACTIONS: readonly TreeAction[] = TREE_ACTIONS.filter((a) => a.labelled);

/** CONTEXT_MENU lists the ids of the rows' context menu, in order. */
const CONTEXT_MENU = ["compile", "keep-compiled", "share", "rename", "move", "delete", "download", "copy-to-edit"];

/** menuActions are the context menu's items for the selection; those that do not apply are there but off, or left out. */
export function menuActions(s: TreeSelection): TreeAction[] {
  return CONTEXT_MENU.map((id) => TREE_ACTIONS.find((a) => a.id === id)!).filter((a) => !a.hiddenInMenu?.(s));
}

/** actionForKey is the action a key in the tree stands for, if any. */
export function actionForKey(key: string): TreeAction | undefined {
  return TREE_ACTIONS.find((a) => a.key === key);
}
