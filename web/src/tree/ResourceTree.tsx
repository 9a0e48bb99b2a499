// The file tree panel: toolbar, virtualized rows, dialogs, upload by drop.

import { useTranslation } from "react-i18next";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { Dispatch, DragEvent, KeyboardEvent, SetStateAction } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useIsFetching, useQueryClient } from "@tanstack/react-query";
import { FolderTree } from "lucide-react";
import { copyToEdit, createFolder, deleteResource, renameResource } from "../api/resources";
import type { ResourceNode } from "../api/types";
import { SHARED_ROOT, ancestorFolders, childURI, displayPath, folderOf, isFolderURI, isWithin, nameOf, parentURI, renamedURI, sharedEntryOf } from "../api/uri";
import { ShareDialog } from "../share/ShareDialog";
import { TRASH_KEY, TrashDialog } from "../trash/TrashDialog";
import { VersionsDialog } from "../trash/VersionsDialog";
import { isFolderMatch } from "../api/search";
import { TreeSearch } from "../search/TreeSearch";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { NameDialog } from "../ui/NameDialog";
import { messageOf } from "../ui/errors";
import { canCopyToEdit, canModify, canRename, canShare, canWriteIn } from "./access";
import { isActiveJob } from "./badges";
import { flattenWorkspace, treeStatus } from "./flatten";
import { JobWatch } from "./JobWatch";
import { overviewOf } from "./layers";
import type { FolderState, TreeRow } from "./flatten";
import { TreeRowView, cssID } from "./TreeRowView";
import { TYPE_AHEAD_MS, isTypeAheadKey, treeKeyAction, typeAheadMatch } from "./treeKeys";
import type { NodeRow } from "./treeKeys";
import { TreeToolbar } from "./TreeToolbar";
import { UploadConflictDialog } from "./UploadConflictDialog";
import { UploadList } from "./UploadList";
import { refreshFolders, useFolderListings } from "./useFolderListings";
import { droppedFiles } from "./uploadPaths";
import { useUploads } from "./useUploads";
import { ArchiveChoiceDialog } from "./ArchiveChoiceDialog";
import { KeepCompiledDialog, canKeepCompiled } from "./KeepCompiledDialog";
import { isArchiveName } from "../api/resources";

const ROW_HEIGHT = 26;

type DialogState =
  | { kind: "new-folder"; parent: string }
  | { kind: "rename"; uri: string }
  | { kind: "delete"; uri: string }
  | { kind: "versions"; uri: string }
  | { kind: "share"; uri: string }
  | { kind: "keep"; uri: string }
  | { kind: "trash" }
  | null;

// The "Shared with me" listing loads always: whether the section shows depends on it.
const SHARED_LIST = [SHARED_ROOT];

/** ExpandedState is the tree's open folders; the workspace owns it so it survives a layout switch. */
export type ExpandedState = [Set<string>, Dispatch<SetStateAction<Set<string>>>];

export function ResourceTree(props: {
  root: string;
  /** the signed-in user, named as owner in the Share dialog */
  username: string;
  selected: string | null;
  onSelect: (uri: string | null, opts?: { open?: boolean; reveal?: boolean }) => void;
  expanded: ExpandedState;
  /** open the preview at a search hit, the hit's query highlighted */
  onOpenHit: (uri: string, offset: number, query: string) => void;
  /** Ctrl+K: show the tree (the narrow layout may show another panel) */
  onSummon?: () => void;
}) {
  const { t } = useTranslation("tree");
  const { root, selected, onSelect } = props;
  const qc = useQueryClient();
  const [expanded, setExpanded] = props.expanded;
  const [dialog, setDialog] = useState<DialogState>(null);
  const [dropFolder, setDropFolder] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const searchInput = useRef<HTMLInputElement>(null);
  const uploads = useUploads();
  const [archiveChoice, setArchiveChoice] = useState<{ folder: string; file: File } | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  useEffect(() => setActionError(null), [selected]);

  const shared = useFolderListings(SHARED_LIST);
  const entries = useMemo(() => (shared.folders.get(SHARED_ROOT)?.items ?? []).map((n) => n.uri), [shared.folders]);
  // Expanded folders of someone else's tree load only inside a shared entry:
  // revealing a shared file also expands the folders above the entry, which
  // the caller cannot list.
  const loadedFolders = useMemo(
    () => [root, ...[...expanded].filter((u) => isWithin(u, root) || (u !== SHARED_ROOT && sharedEntryOf(u, entries) !== null))],
    [root, expanded, entries],
  );
  const own = useFolderListings(loadedFolders);
  const loadMore = own.loadMore;
  const folders = useMemo(() => new Map<string, FolderState>([...own.folders, ...shared.folders]), [own.folders, shared.folders]);
  const rows = useMemo(() => flattenWorkspace(root, expanded, folders), [root, expanded, folders]);
  const status = useMemo(() => treeStatus(rows), [rows]);
  // A badge of a loaded file that says queued/running keeps the job watcher on.
  const treeActive = useMemo(() => {
    for (const st of folders.values()) for (const n of st.items) if (isActiveJob(n.job?.state)) return true;
    return false;
  }, [folders]);
  const refreshing = useIsFetching({ queryKey: ["listing"] }) > 0;

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });

  const currentFolder = selected ? folderOf(selected) : root;
  // Search looks in the selected folder, else in the whole tree.
  const searchScope = selected && isFolderURI(selected) ? selected : root;
  const searchLabel = searchScope === root ? t("home") : searchScope === SHARED_ROOT ? t("sharedWithMe") : nameOf(searchScope);
  const writable = canWriteIn(currentFolder, root, folders);
  const overview = overviewOf(selected, folders);
  const editable = (uri: string) => canModify(uri, root, folders);
  const renamable = (uri: string) => canRename(uri, root, folders);

  const toggle = useCallback((uri: string, open?: boolean) => {
    setExpanded((s) => {
      const next = new Set(s);
      if (open ?? !next.has(uri)) next.add(uri);
      else next.delete(uri);
      return next;
    });
  }, [setExpanded]);

  const activate = useCallback(
    (row: TreeRow) => {
      if (row.type !== "node") return;
      const { node } = row;
      onSelect(node.uri, { open: true });
      if (node.kind === "dir") toggle(node.uri);
    },
    [onSelect, toggle],
  );

  const onLoadMore = useCallback((folder: string) => void loadMore(folder), [loadMore]);
  const onOpen = useCallback((uri: string) => onSelect(uri, { open: true, reveal: true }), [onSelect]);

  // A selection made outside the tree (a tool card, the address, a summary
  // link) scrolls its row into view once the row exists, its folders having
  // been opened by the workspace; later scrolling is the user's.
  const scrolledTo = useRef<string | null>(null);
  useEffect(() => {
    if (!selected || scrolledTo.current === selected) return;
    const i = rows.findIndex((r) => r.type === "node" && r.node.uri === selected);
    if (i < 0) return;
    scrolledTo.current = selected;
    virtualizer.scrollToIndex(i, { align: "auto" });
  }, [selected, rows, virtualizer]);

  function refresh() {
    void refreshFolders(qc, [...loadedFolders, SHARED_ROOT]);
  }

  async function doCreateFolder(parent: string, name: string) {
    const uri = childURI(parent, name, "dir");
    await createFolder(uri);
    if (parent !== root) toggle(parent, true);
    await refreshFolders(qc, [parent]);
    onSelect(uri);
  }

  async function doRename(uri: string, name: string) {
    const target = renamedURI(uri, name);
    if (target === uri) return;
    const moved = await renameResource(uri, target);
    const newURI = moved?.uri ?? target;
    // Forget expansion and cached pages below the old name.
    setExpanded((s) => new Set([...s].map((u) => (isWithin(u, uri) ? newURI + u.slice(uri.length) : u))));
    qc.removeQueries({ predicate: (q) => typeof q.queryKey[1] === "string" && isWithin(q.queryKey[1], uri) });
    await refreshFolders(qc, [parentURI(uri) ?? root, parentURI(newURI) ?? root]);
    if (selected && isWithin(selected, uri)) onSelect(newURI + selected.slice(uri.length));
  }

  // The copy lands outside the compile output; it opens, selected, there.
  async function doCopyToEdit(uri: string) {
    setActionError(null);
    try {
      const copy = await copyToEdit(uri);
      const parent = parentURI(copy.uri) ?? root;
      const opened = ancestorFolders(copy.uri, root);
      setExpanded((s) => new Set([...s, ...opened]));
      await refreshFolders(qc, [...new Set([root, parent, ...opened])]);
      onSelect(copy.uri, { open: true, reveal: true });
    } catch (err) {
      setActionError(messageOf(err));
    }
  }

  async function doDelete(uri: string) {
    await deleteResource(uri);
    void qc.invalidateQueries({ queryKey: TRASH_KEY });
    setExpanded((s) => new Set([...s].filter((u) => !isWithin(u, uri))));
    qc.removeQueries({ predicate: (q) => typeof q.queryKey[1] === "string" && isWithin(q.queryKey[1], uri) });
    await refreshFolders(qc, [parentURI(uri) ?? root]);
    if (selected && isWithin(selected, uri)) onSelect(null);
  }

  // A restored item returns to its folder (or one it recreated): show it there.
  async function onRestored(node: ResourceNode) {
    const parent = parentURI(node.uri) ?? root;
    const opened = ancestorFolders(node.uri, root);
    setExpanded((s) => new Set([...s, ...opened]));
    await refreshFolders(qc, [...new Set([root, parent, ...opened])]);
  }

  function startUpload(folder: string, files: readonly File[] | FileList | null) {
    if (!files || files.length === 0 || !canWriteIn(folder, root, folders)) return;
    if (folder !== root) toggle(folder, true);
    const list = Array.from(files);
    const only = list.length === 1 ? list[0] : undefined;
    // One archive: offer to import it as a folder, or to upload it as is.
    if (only && isArchiveName(only.name)) {
      setArchiveChoice({ folder, file: only });
      return;
    }
    uploads.start(folder, list);
  }

  // Keyboard (WAI-ARIA tree view): arrows, Home/End and type-ahead move the
  // selection (treeKeys.ts), Enter toggles, F2 renames, Delete deletes.
  const typed = useRef({ prefix: "", at: 0 });
  function onKeyDown(e: KeyboardEvent) {
    const nodeRows = rows.filter((r): r is NodeRow => r.type === "node");
    const cur = nodeRows.find((r) => r.node.uri === selected);
    if (e.key === "/" && !e.ctrlKey && !e.altKey && !e.metaKey) {
      searchInput.current?.focus();
      e.preventDefault();
      return;
    }
    const go = (uri: string | null) => {
      if (!uri) return;
      onSelect(uri);
      virtualizer.scrollToIndex(rows.findIndex((r) => r.type === "node" && r.node.uri === uri), { align: "auto" });
    };
    if (isTypeAheadKey(e)) {
      const now = e.timeStamp;
      const ta = typed.current;
      ta.prefix = now - ta.at > TYPE_AHEAD_MS ? e.key : ta.prefix + e.key;
      ta.at = now;
      go(typeAheadMatch(nodeRows, selected, ta.prefix));
      e.preventDefault();
      return;
    }
    const action = treeKeyAction(nodeRows, selected, e.key);
    if (action) {
      if (action.kind === "select") go(action.uri);
      else toggle(action.uri, action.kind === "expand");
      e.preventDefault();
      return;
    }
    switch (e.key) {
      case "Enter":
        if (cur) activate(cur);
        break;
      case "F2":
        if (cur && renamable(cur.node.uri)) setDialog({ kind: "rename", uri: cur.node.uri });
        break;
      case "Delete":
        if (cur && editable(cur.node.uri)) setDialog({ kind: "delete", uri: cur.node.uri });
        break;
      case "ArrowDown":
      case "ArrowUp":
      case "ArrowLeft":
      case "ArrowRight":
      case "Home":
      case "End":
        // At an end of the tree the key does nothing, but it must not scroll the panel.
        break;
      default:
        return;
    }
    e.preventDefault();
  }

  function folderAtEvent(e: DragEvent): string {
    const el = (e.target as HTMLElement).closest<HTMLElement>("[data-uri]");
    const uri = el?.dataset.uri;
    return uri ? folderOf(uri) : root;
  }
  function onDragOver(e: DragEvent) {
    if (!e.dataTransfer.types.includes("Files")) return;
    e.preventDefault();
    const f = folderAtEvent(e);
    const ok = canWriteIn(f, root, folders);
    e.dataTransfer.dropEffect = ok ? "copy" : "none";
    const target = ok ? f : null;
    if (target !== dropFolder) setDropFolder(target);
  }
  function onDrop(e: DragEvent) {
    if (!e.dataTransfer.types.includes("Files")) return;
    e.preventDefault();
    const folder = folderAtEvent(e);
    setDropFolder(null);
    // A dropped folder keeps its subfolders (uploadPaths.ts).
    void droppedFiles(e.dataTransfer).then((files) => startUpload(folder, files));
  }

  // aria-activedescendant may only name a rendered row: the selected one can
  // be outside the virtual window, or not loaded at all.
  const selectedIndex = selected ? rows.findIndex((r) => r.type === "node" && r.node.uri === selected) : -1;
  const rendered = virtualizer.getVirtualItems().some((v) => v.index === selectedIndex);
  const selectedRowID = selected && rendered ? `node-${cssID(selected)}` : undefined;

  return (
    <div className="tree-panel">
      <div className="panel-header">
        <h2 className="panel-title">
          <FolderTree size={16} aria-hidden /> {t("files")}
        </h2>
        <TreeToolbar
          canEdit={selected !== null && editable(selected)}
          canRename={selected !== null && renamable(selected)}
          canWrite={writable}
          refreshing={refreshing}
          onRefresh={refresh}
          onNewFolder={() => setDialog({ kind: "new-folder", parent: currentFolder })}
          onUpload={() => fileInput.current?.click()}
          onUploadFolder={() => folderInput.current?.click()}
          onRename={() => selected && setDialog({ kind: "rename", uri: selected })}
          onDelete={() => selected && setDialog({ kind: "delete", uri: selected })}
          onVersions={selected && !selected.endsWith("/") ? () => setDialog({ kind: "versions", uri: selected }) : undefined}
          onCopyToEdit={canCopyToEdit(selected, folders) ? () => void doCopyToEdit(selected) : undefined}
          onShare={selected && canShare(selected, root) ? () => setDialog({ kind: "share", uri: selected }) : undefined}
          onOpenOverview={overview ? () => onOpen(overview) : undefined}
          onKeepCompiled={canKeepCompiled(selected, root) ? () => setDialog({ kind: "keep", uri: selected }) : undefined}
          onTrash={() => setDialog({ kind: "trash" })}
        />
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          data-testid="upload-input"
          onChange={(e) => {
            startUpload(currentFolder, e.target.files);
            e.target.value = "";
          }}
        />
        <input
          ref={folderInput}
          type="file"
          hidden
          data-testid="upload-folder-input"
          // React has no prop for it; the browser then gives every file its path (webkitRelativePath).
          {...{ webkitdirectory: "" }}
          onChange={(e) => {
            startUpload(currentFolder, e.target.files);
            e.target.value = "";
          }}
        />
      </div>
      <TreeSearch
        scope={searchScope}
        scopeLabel={searchLabel}
        inputRef={searchInput}
        onOpenName={(m) => {
          onSelect(m.uri, { open: true, reveal: true });
          if (isFolderMatch(m)) toggle(m.uri, true);
        }}
        onOpenHit={(hit, q) => props.onOpenHit(hit.uri, hit.offset, q)}
        onSummon={props.onSummon}
        onExit={() => scrollRef.current?.focus()}
      />
      {actionError && (
        <p className="error tree-action-error" role="alert">
          {actionError}
        </p>
      )}
      {status.note && (
        <TreeRowView row={status.note} selected={false} dropTarget={false} onActivate={activate} onLoadMore={onLoadMore} onOpen={onOpen} />
      )}
      <div
        ref={scrollRef}
        className={`tree-scroll${dropFolder === root ? " drop-root" : ""}`}
        role="tree"
        aria-label={t("files")}
        aria-busy={status.busy || undefined}
        tabIndex={0}
        aria-activedescendant={selectedRowID}
        onKeyDown={onKeyDown}
        onDragOver={onDragOver}
        onDragLeave={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDropFolder(null);
        }}
        onDrop={onDrop}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {virtualizer.getVirtualItems().map((v) => {
            const row = rows[v.index];
            if (!row || row === status.note) return null;
            const isSel = row.type === "node" && row.node.uri === selected;
            const isDrop = row.type === "node" && row.node.kind === "dir" && row.node.uri === dropFolder;
            return (
              <div
                key={row.key}
                className="tree-row-slot"
                style={{ transform: `translateY(${v.start}px)`, height: ROW_HEIGHT }}
              >
                <TreeRowView row={row} selected={isSel} dropTarget={isDrop} onActivate={activate} onLoadMore={onLoadMore} onOpen={onOpen} />
              </div>
            );
          })}
        </div>
      </div>
      <JobWatch treeActive={treeActive} />
      <UploadList jobs={uploads.jobs} onDismiss={uploads.dismiss} />
      {archiveChoice && (
        <ArchiveChoiceDialog
          name={archiveChoice.file.name}
          onImport={() => {
            uploads.startImport(archiveChoice.folder, archiveChoice.file);
            setArchiveChoice(null);
          }}
          onUpload={() => {
            uploads.start(archiveChoice.folder, [archiveChoice.file]);
            setArchiveChoice(null);
          }}
          onCancel={() => setArchiveChoice(null)}
        />
      )}
      {uploads.conflict && (
        <UploadConflictDialog key={uploads.conflict.jobID + uploads.conflict.name} question={uploads.conflict} onAnswer={uploads.conflict.answer} />
      )}
      {dialog?.kind === "new-folder" && (
        <NameDialog
          title={t("newFolder")}
          label={t("nameIn", { folder: nameOf(dialog.parent) || t("homeLower") })}
          submitLabel={t("create")}
          onSubmit={(name) => doCreateFolder(dialog.parent, name)}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === "rename" && (
        <NameDialog
          title={t("rename")}
          label={t("newName")}
          initial={nameOf(dialog.uri)}
          submitLabel={t("rename")}
          onSubmit={(name) => doRename(dialog.uri, name)}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === "versions" && (
        <VersionsDialog uri={dialog.uri} readOnly={!canWriteIn(parentURI(dialog.uri) ?? root, root, folders)} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === "share" && (
        <ShareDialog
          uri={dialog.uri}
          root={root}
          username={props.username}
          onClose={() => setDialog(null)}
          onChanged={() => void refreshFolders(qc, [parentURI(dialog.uri) ?? root])}
        />
      )}
      {dialog?.kind === "keep" && (
        <KeepCompiledDialog folder={dialog.uri} display={(u) => displayPath(u, root)} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === "trash" && <TrashDialog onClose={() => setDialog(null)} onRestored={onRestored} />}
      {dialog?.kind === "delete" && (
        <ConfirmDialog
          title={t("delete")}
          confirmLabel={t("delete")}
          onConfirm={() => doDelete(dialog.uri)}
          onClose={() => setDialog(null)}
        >
          {t(dialog.uri.endsWith("/") ? "confirmDeleteFolder" : "confirmDeleteFile", { name: nameOf(dialog.uri) })}
        </ConfirmDialog>
      )}
    </div>
  );
}
