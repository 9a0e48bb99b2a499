import { useTranslation } from "react-i18next";
import { memo, useEffect } from "react";
import type { CSSProperties, MouseEvent } from "react";
import {
  ChevronDown,
  ChevronRight,
  CircleAlert,
  Clock,
  File,
  FileBraces,
  FileCode,
  FileImage,
  FileSpreadsheet,
  FileText,
  Folder,
  FolderOpen,
  FolderSync,
  LoaderCircle,
  Sparkles,
  TriangleAlert,
  UsersRound,
} from "lucide-react";
import type { ResourceNode } from "../api/types";
import { SHARED_ROOT, extensionOf } from "../api/uri";
import { formatBytes } from "../ui/format";
import { fileBadge } from "./badges";
import { rowTitle } from "./layers";
import { usePlaceName } from "../ui/placeName";
import type { FileBadge } from "./badges";
import type { TreeRow } from "./flatten";

const CODE_EXT = new Set(["go", "ts", "tsx", "js", "jsx", "py", "rs", "java", "c", "h", "cpp", "sh", "sql", "yaml", "yml", "toml", "html", "css"]);
const TEXT_EXT = new Set(["md", "markdown", "txt", "pdf", "docx", "rst"]);

function NodeIcon({ node, open }: { node: ResourceNode; open: boolean }) {
  if (node.uri === SHARED_ROOT) return <UsersRound size={15} aria-hidden />;
  if (node.kind === "dir") return open ? <FolderOpen size={15} aria-hidden /> : <Folder size={15} aria-hidden />;
  const ext = extensionOf(node.name);
  if (ext === "csv" || ext === "tsv" || ext === "xlsx") return <FileSpreadsheet size={15} aria-hidden />;
  if (ext === "json") return <FileBraces size={15} aria-hidden />;
  if (CODE_EXT.has(ext)) return <FileCode size={15} aria-hidden />;
  if (TEXT_EXT.has(ext)) return <FileText size={15} aria-hidden />;
  if (["png", "jpg", "jpeg", "gif", "svg", "webp"].includes(ext)) return <FileImage size={15} aria-hidden />;
  return <File size={15} aria-hidden />;
}

const INDENT = 14;

function BadgeIcon({ badge }: { badge: FileBadge }) {
  switch (badge.kind) {
    case "queued":
      return <Clock size={10} aria-hidden />;
    case "parsing":
    case "compiling":
      return <LoaderCircle size={10} className="spin" aria-hidden />;
    case "failed":
      return <CircleAlert size={10} aria-hidden />;
    case "stale":
      return <TriangleAlert size={10} aria-hidden />;
    default:
      return null;
  }
}

/**
 * JobBadgeView is a file row's job or summary badge (fixed height: rows never
 * grow). A summary badge links to the summary; the link is out of the Tab
 * order (the tree is one tab stop) and the preview header offers the same
 * link to keyboard users.
 */
function JobBadgeView({ badge, summaryURI, onOpen }: { badge: FileBadge; summaryURI?: string; onOpen: (uri: string) => void }) {
  const { t } = useTranslation("tree");
  const className = `badge tree-badge tone-${badge.tone}`;
  if (summaryURI && (badge.kind === "fresh" || badge.kind === "stale")) {
    return (
      <a
        className={`${className} badge-link`}
        data-badge={badge.kind}
        title={t("row.clickToOpen", { title: badge.title })}
        href={openHref(summaryURI)}
        tabIndex={-1}
        onClick={(e) => {
          e.preventDefault();
          e.stopPropagation();
          onOpen(summaryURI);
        }}
      >
        <BadgeIcon badge={badge} />
        {badge.label}
      </a>
    );
  }
  return (
    <span className={className} data-badge={badge.kind} title={badge.title}>
      <BadgeIcon badge={badge} />
      {badge.label}
    </span>
  );
}

/** openHref is the app's address that opens uri (Workspace reads ?open=). */
export function openHref(uri: string): string {
  return `?open=${encodeURIComponent(uri)}`;
}

/** RowClick is how a row was clicked: Ctrl/Cmd toggles it in the selection, Shift selects a range. */
export interface RowClick {
  toggle: boolean;
  range: boolean;
}

const clickOf = (e: MouseEvent): RowClick => ({ toggle: e.ctrlKey || e.metaKey, range: e.shiftKey });

/** TreeRowView draws one row of the virtualized tree. */
export const TreeRowView = memo(function TreeRowView(props: {
  row: TreeRow;
  /** in the selection */
  selected: boolean;
  /** the current row: the one the preview shows, the tree's active descendant */
  current?: boolean;
  dropTarget: boolean;
  onActivate: (row: TreeRow, click: RowClick) => void;
  /** right-click: the row's context menu at the pointer */
  onMenu?: (row: TreeRow, at: { x: number; y: number }) => void;
  onLoadMore: (folder: string) => void;
  onOpen: (uri: string) => void;
}) {
  const { t } = useTranslation("tree");
  const place = usePlaceName();
  const { row } = props;
  const pad = { paddingLeft: 6 + row.depth * INDENT };
  if (row.type === "node") {
    const { node } = row;
    const badge = fileBadge(node);
    return (
      <div
        role="treeitem"
        id={`node-${cssID(node.uri)}`}
        aria-level={row.depth + 1}
        aria-selected={props.selected}
        aria-expanded={node.kind === "dir" ? row.expanded : undefined}
        data-uri={node.uri}
        data-kind={node.kind}
        data-job-state={node.job?.state}
        data-summary={node.summary}
        data-owner={node.owner}
        className={`tree-row${props.selected ? " selected" : ""}${props.current ? " current" : ""}${props.dropTarget ? " drop-target" : ""}${node.uri === SHARED_ROOT ? " tree-section" : ""}`}
        style={pad}
        onClick={(e) => props.onActivate(row, clickOf(e))}
        onContextMenu={(e) => {
          if (!props.onMenu) return;
          e.preventDefault();
          props.onMenu(row, { x: e.clientX, y: e.clientY });
        }}
        title={rowTitle(node, place(node.uri))}
      >
        <span className="twisty" aria-hidden>
          {node.kind === "dir" ? row.expanded ? <ChevronDown size={13} /> : <ChevronRight size={13} /> : null}
        </span>
        <NodeIcon node={node} open={row.expanded} />
        <span className="tree-name">
          {node.uri === SHARED_ROOT ? t("sharedWithMe") : node.name}
          {node.owner && <span className="tree-owner"> — {node.owner}</span>}
          {/* On the name's line, so the virtualized rows keep one height; the row's title reads it out whole. */}
          {node.abstract && (
            <span className="tree-abstract" aria-hidden>
              {" "}
              {node.abstract}
            </span>
          )}
        </span>
        {node.owner && node.role === "read" && (
          <span className="badge tree-badge tone-subtle" title={t("row.readOnlyTitle", { owner: node.owner })}>
            {t("row.readOnly")}
          </span>
        )}
        {node.shared && (
          <span className="tree-shared" role="img" aria-label={t("row.shared")} title={t("row.shared")}>
            <UsersRound size={12} aria-hidden />
          </span>
        )}
        {node.auto_compile && (
          <span className="badge tree-badge tone-subtle" data-badge="kept-compiled" title={t("row.keptCompiledTitle")}>
            <FolderSync size={10} aria-hidden /> {t("row.keptCompiled")}
          </span>
        )}
        {node.text_state === "text_pending" && (
          <span
            className="badge tree-badge tone-subtle"
            data-text-state="pending"
            title={node.text_progress ? t("row.extractingPagesTitle", node.text_progress) : t("row.extractingTitle")}
          >
            {node.text_progress ? t("row.extractingPages", node.text_progress) : t("row.extracting")}
          </span>
        )}
        {node.text_state === "text_failed" && (
          <span className="badge tree-badge tone-subtle" data-text-state="failed" title={t("row.noTextTitle")}>
            {t("row.noText")}
          </span>
        )}
        {node.ocr && (
          <span className="badge tree-badge tone-subtle" data-ocr="" title={t("row.ocrTitle")}>
            {t("row.ocr")}
          </span>
        )}
        {node.generated && (
          <span className="badge generated" title={t("row.generatedTitle")}>
            <Sparkles size={11} aria-hidden /> {t("row.gen")}
          </span>
        )}
        {badge && <JobBadgeView badge={badge} summaryURI={node.summary_uri} onOpen={props.onOpen} />}
        {node.kind === "file" && <span className="tree-size">{formatBytes(node.size)}</span>}
      </div>
    );
  }
  if (row.type === "more") {
    return <LoadMoreRow folder={row.folder} style={pad} onLoadMore={props.onLoadMore} />;
  }
  if (row.type === "loading") {
    return (
      <div className="tree-row muted" style={pad} role="presentation">
        <LoaderCircle size={13} className="spin" aria-hidden /> {t("common:loading")}
      </div>
    );
  }
  if (row.type === "empty") {
    return (
      <div className="tree-row muted" style={pad} role="presentation">
        {t("row.empty")}
      </div>
    );
  }
  return (
    <div className="tree-row error" style={pad} role="presentation">
      {row.message}
    </div>
  );
});

function LoadMoreRow(props: { folder: string; style: CSSProperties; onLoadMore: (f: string) => void }) {
  const { folder, onLoadMore } = props;
  // The row only exists while it is scrolled into view (virtualized), so
  // rendering it is the signal to fetch the next page.
  const { t } = useTranslation("tree");
  useAutoLoad(folder, onLoadMore);
  return (
    <div className="tree-row muted" style={props.style} role="presentation">
      <button type="button" className="link-btn" onClick={() => onLoadMore(folder)}>
        {t("row.loadMore")}
      </button>
    </div>
  );
}

function useAutoLoad(folder: string, onLoadMore: (f: string) => void) {
  useEffect(() => {
    onLoadMore(folder);
  }, [folder, onLoadMore]);
}

/** cssID turns a URI into a string usable in an element id. */
export function cssID(uri: string): string {
  let h = 0;
  for (let i = 0; i < uri.length; i++) h = (Math.imul(31, h) + uri.charCodeAt(i)) | 0;
  return (h >>> 0).toString(36);
}
