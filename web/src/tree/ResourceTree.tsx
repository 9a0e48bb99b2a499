// The file tree panel: toolbar, virtualized rows (one current row, any
// number selected), the rows' context menu, dialogs, upload by drop.

import { useTranslation } from "react-i18next";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { ChangeEvent, Dispatch, SetStateAction } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useIsFetching, useQueryClient } from "@tanstack/react-query";
import { FolderTree } from "lucide-react";
import { useAgentOptions } from "../api/agentOptions";
import { refreshFolders } from "../api/listingQueries";
import { queryKeys } from "../api/queryKeys";
import { isFolderMatch } from "../api/search";
import { fetchRaw } from "../api/resources";
import { SHARED_ROOT, isFolderURI, isWithin, nameOf, sharedEntryOf } from "../api/uri";
import { messageOf } from "../ui/errors";
import { saveBlob } from "../ui/saveBlob";
import { TreeSearch } from "../search/TreeSearch";
import { canWriteIn } from "./access";
import { ArchiveChoiceDialog } from "./ArchiveChoiceDialog";
import { isActiveJob } from "./badges";
import { flattenWorkspace, treeStatus } from "./flatten";
import type { FolderState, TreeRow } from "./flatten";
import { JobWatch } from "./JobWatch";
import { NOTHING_PICKED, clickPick, inViewOrder, selectionOf, single } from "./multiSelect";
import type { Picked } from "./multiSelect";
import { treeSelection } from "./treeActions";
import type { TreeAction, TreeActionHost, TreeDialog } from "./treeActions";
import { TreeContextMenu } from "./TreeContextMenu";
import { TreeDialogs } from "./TreeDialogs";
import type { NodeRow } from "./treeKeys";
import { TreeRowView, cssID } from "./TreeRowView";
import type { RowClick } from "./TreeRowView";
import { TreeHeaderActions, TreeToolbar } from "./TreeToolbar";
import { UploadConflictDialog } from "./UploadConflictDialog";
import { UploadList } from "./UploadList";
import { useFolderListings } from "./useFolderListings";
import { useTreeEdits } from "./useTreeEdits";
import { useTreeKeyboard } from "./useTreeKeyboard";
import { useTreeUpload } from "./useTreeUpload";
import { useFocusOnArrival } from "./useFocusOnArrival";
import { useSession } from "../auth/session";

const ROW_HEIGHT = 26;

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
  /** open the preview at a search hit, with query (when there is one) found and highlighted there */
  onOpenHit: (uri: string, offset: number, query: string | undefined) => void;
  /** Ctrl+K: show the tree (the narrow layout may show another panel) */
  onSummon?: () => void;
}) {
  const { t } = useTranslation("tree");
  const { root, selected, onSelect } = props;
  const qc = useQueryClient();
  const [expanded, setExpanded] = props.expanded;
  const [dialog, setDialog] = useState<TreeDialog | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  useFocusOnArrival(scrollRef, useSession().signedInHere);
  const searchInput = useRef<HTMLInputElement>(null);
  // The server says which mode a question runs in: hybrid with an embedding model.
  const agentOptions = useAgentOptions();

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
  const refreshing = useIsFetching({ queryKey: queryKeys.listings() }) > 0;

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });

  // The rows Ctrl/Shift-clicks picked with the current row; a current row set
  // from outside (a search hit, a citation) is selected alone.
  const [pickedState, setPicked] = useState<Picked>(NOTHING_PICKED);
  const picked = selectionOf(pickedState, selected);
  const nodeRows = useMemo(() => rows.filter((r): r is NodeRow => r.type === "node"), [rows]);
  const pickedURIs = useMemo(() => inViewOrder(nodeRows, picked.uris), [nodeRows, picked.uris]);
  const pickedSet = useMemo(() => new Set(picked.uris), [picked.uris]);
  const selection = treeSelection(selected, root, folders, pickedURIs);
  const [menu, setMenu] = useState<{ x: number; y: number } | null>(null);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  // Search looks in the selected folder, else in the whole tree.
  const searchScope = selected && isFolderURI(selected) ? selected : root;
  const searchLabel = searchScope === root ? t("home") : searchScope === SHARED_ROOT ? t("sharedWithMe") : nameOf(searchScope);

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
      setPicked(single(node.uri));
      onSelect(node.uri, { open: true });
      if (node.kind === "dir") toggle(node.uri);
    },
    [onSelect, toggle],
  );

  // A click with Ctrl/Cmd or Shift changes the selection; the current row
  // moves to the row (the preview follows) unless Ctrl took it out.
  const pickedRef = useRef(picked);
  pickedRef.current = picked;
  const nodeRowsRef = useRef(nodeRows);
  nodeRowsRef.current = nodeRows;
  const onRowClick = useCallback(
    (row: TreeRow, click: RowClick) => {
      if (row.type !== "node") return;
      if (!click.toggle && !click.range) return activate(row);
      const next = clickPick(nodeRowsRef.current, pickedRef.current, row.node.uri, click);
      setPicked(next.picked);
      if (next.move) onSelect(row.node.uri);
    },
    [activate, onSelect],
  );

  // A right-click on a row outside the selection selects that row alone.
  const onRowMenu = useCallback(
    (row: TreeRow, at: { x: number; y: number }) => {
      if (row.type !== "node") return;
      const uri = row.node.uri;
      if (!pickedRef.current.uris.includes(uri)) {
        setPicked(single(uri));
        onSelect(uri);
      }
      scrollRef.current?.focus({ preventScroll: true });
      setMenu(at);
    },
    [onSelect],
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

  const edits = useTreeEdits({ root, selected, onSelect, setExpanded, toggle });
  const host: TreeActionHost = {
    open: setDialog,
    refresh: () => void refreshFolders(qc, [...loadedFolders, SHARED_ROOT]),
    pick: (what) => (what === "files" ? fileInput : folderInput).current?.click(),
    copyToEdit: (uri) => edits.copy.mutate(uri),
    openFile: onOpen,
    download: (uris) => {
      setDownloadError(null);
      // One after another, so the browser does not take a burst for pop-ups.
      void (async () => {
        for (const uri of uris) saveBlob(await fetchRaw(uri), nameOf(uri));
      })().catch((err: unknown) => setDownloadError(messageOf(err)));
    },
  };

  const closeMenu = useCallback((refocus: boolean) => {
    setMenu(null);
    if (refocus) scrollRef.current?.focus({ preventScroll: true });
  }, []);
  const runFromMenu = (a: TreeAction) => {
    // Focus is back on the tree before a dialog opens, so closing the dialog returns it there.
    closeMenu(true);
    a.run(selection, host);
  };
  /** openMenuAtCurrent opens the context menu on the current row (the keyboard's way). */
  const openMenuAtCurrent = () => {
    const el = selected ? document.getElementById(`node-${cssID(selected)}`) : null;
    const box = (el ?? scrollRef.current)?.getBoundingClientRect();
    if (!box) return;
    setMenu({ x: box.left + Math.min(24, box.width / 2), y: el ? box.bottom : box.top });
  };
  const menuLabel =
    selection.uris.length > 1
      ? t("menu.labelMany", { count: selection.uris.length })
      : t("menu.label", { name: selection.uris[0] ? nameOf(selection.uris[0]) || t("home") : t("home") });

  const canWrite = (folder: string) => canWriteIn(folder, root, folders);
  const upload = useTreeUpload(root, canWrite, (folder) => toggle(folder, true));
  const onPicked = (e: ChangeEvent<HTMLInputElement>) => {
    upload.start(selection.folder, e.target.files);
    e.target.value = "";
  };
  const onKeyDown = useTreeKeyboard({
    rows,
    selection,
    host,
    go: (uri) => {
      onSelect(uri);
      virtualizer.scrollToIndex(rows.findIndex((r) => r.type === "node" && r.node.uri === uri), { align: "auto" });
    },
    toggle,
    activate,
    searchInput,
    picked,
    setPicked,
    openMenu: openMenuAtCurrent,
  });

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
        <TreeHeaderActions selection={selection} host={host} />
        <TreeToolbar selection={selection} host={host} refreshing={refreshing} />
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          data-testid="upload-input"
          onChange={onPicked}
        />
        <input
          ref={folderInput}
          type="file"
          hidden
          data-testid="upload-folder-input"
          // React has no prop for it; the browser then gives every file its path (webkitRelativePath).
          {...{ webkitdirectory: "" }}
          onChange={onPicked}
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
        onOpenHit={(hit, find) => props.onOpenHit(hit.uri, hit.offset, find)}
        multiWordMode={agentOptions.data?.search.question_mode}
        onSummon={props.onSummon}
        onExit={() => scrollRef.current?.focus()}
      />
      {(edits.copyError ?? downloadError) && (
        <p className="error tree-action-error" role="alert">
          {edits.copyError ?? downloadError}
        </p>
      )}
      {status.note && (
        <TreeRowView row={status.note} selected={false} dropTarget={false} onActivate={activate} onLoadMore={onLoadMore} onOpen={onOpen} />
      )}
      <div
        ref={scrollRef}
        className={`tree-scroll${upload.dropFolder === root ? " drop-root" : ""}`}
        role="tree"
        aria-label={t("files")}
        aria-multiselectable
        aria-busy={status.busy || undefined}
        tabIndex={0}
        aria-activedescendant={selectedRowID}
        onKeyDown={onKeyDown}
        onContextMenu={(e) => {
          // A row opens its own; this is the keyboard's (on the focused tree) or a click below the rows.
          if (e.isDefaultPrevented()) return;
          e.preventDefault();
          if (e.clientX === 0 && e.clientY === 0) openMenuAtCurrent();
          else setMenu({ x: e.clientX, y: e.clientY });
        }}
        {...upload.dropHandlers}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {virtualizer.getVirtualItems().map((v) => {
            const row = rows[v.index];
            if (!row || row === status.note) return null;
            const isCur = row.type === "node" && row.node.uri === selected;
            const isSel = row.type === "node" && pickedSet.has(row.node.uri);
            const isDrop = row.type === "node" && row.node.kind === "dir" && row.node.uri === upload.dropFolder;
            return (
              <div
                key={row.key}
                className="tree-row-slot"
                style={{ transform: `translateY(${v.start}px)`, height: ROW_HEIGHT }}
              >
                <TreeRowView
                  row={row}
                  selected={isSel}
                  current={isCur}
                  dropTarget={isDrop}
                  onActivate={onRowClick}
                  onMenu={onRowMenu}
                  onLoadMore={onLoadMore}
                  onOpen={onOpen}
                />
              </div>
            );
          })}
        </div>
      </div>
      <JobWatch treeActive={treeActive} />
      <UploadList jobs={upload.uploads.jobs} onDismiss={upload.uploads.dismiss} />
      {upload.archive && <ArchiveChoiceDialog name={upload.archive.name} onImport={upload.archive.importIt} onUpload={upload.archive.uploadIt} onCancel={upload.archive.cancel} />}
      {upload.uploads.conflict && (
        <UploadConflictDialog key={upload.uploads.conflict.jobID + upload.uploads.conflict.name} question={upload.uploads.conflict} onAnswer={upload.uploads.conflict.answer} />
      )}
      {menu && <TreeContextMenu at={menu} selection={selection} label={menuLabel} onRun={runFromMenu} onClose={closeMenu} />}
      {dialog && (
        <TreeDialogs
          dialog={dialog}
          root={root}
          username={props.username}
          edits={edits}
          canWriteIn={canWrite}
          folders={folders}
          onClose={() => setDialog(null)}
          onSwitch={setDialog}
        />
      )}
    </div>
  );
}
