// The files a compile starts from: the raw (not compiled) files of one or
// more folders, at most max of them picked. A folder's subfolders are
// offered too: ticking one adds its files (its own group, below it).

import { useTranslation } from "react-i18next";
import { Folder, LoaderCircle } from "lucide-react";
import type { Dispatch, SetStateAction } from "react";
import type { UseQueryResult } from "@tanstack/react-query";
import type { Listing, ResourceNode } from "../../api/types";
import { messageOf } from "../../ui/errors";
import { formatBytes } from "../../ui/format";

/** rawFiles are the listed files a compile can start from. */
export function rawFiles(listing: Listing | undefined): ResourceNode[] {
  return (listing?.items ?? []).filter((n) => n.kind === "file" && !n.generated);
}

/** subfolders are the listed folders whose files a compile may add: not compile output. */
export function subfolders(listing: Listing | undefined): ResourceNode[] {
  return (listing?.items ?? []).filter((n) => n.kind === "dir" && !n.generated);
}

/** SourceGroup is one folder of the picker and its listing. */
export interface SourceGroup {
  folder: string;
  files: UseQueryResult<Listing>;
}

export function SourcePicker(props: {
  groups: readonly SourceGroup[];
  display: (uri: string) => string;
  picked: ReadonlySet<string>;
  max: number;
  onChange: Dispatch<SetStateAction<Set<string>>>;
  /** tick (on) or untick a subfolder of parent: its files join the pick, or leave it */
  onFolder: (folder: string, parent: string, on: boolean) => void;
}) {
  const { t } = useTranslation("agent");
  const { groups, picked, max } = props;
  const shown = new Set(groups.map((g) => g.folder));
  const raw = groups.flatMap((g) => rawFiles(g.files.data));
  const toggle = (uri: string) =>
    props.onChange((s) => {
      const next = new Set(s);
      if (next.has(uri)) next.delete(uri);
      else if (next.size < max) next.add(uri);
      return next;
    });
  const headings = groups.length > 1;
  return (
    <fieldset className="file-pick">
      <legend>{t("compile.files", { count: picked.size, max })}</legend>
      <div className="pick-groups">
        {groups.map(({ folder, files }) => {
          const own = rawFiles(files.data);
          const dirs = subfolders(files.data);
          return (
            <div key={folder} className="pick-group" role={headings ? "group" : undefined} aria-label={headings ? props.display(folder) : undefined}>
              {headings && (
                <p className="pick-folder small">
                  <Folder size={12} aria-hidden /> <code>{props.display(folder)}</code>
                </p>
              )}
              {files.isPending && (
                <p className="muted small">
                  <LoaderCircle size={12} className="spin" aria-hidden /> {t("compile.loadingFiles")}
                </p>
              )}
              {files.isError && <p className="error small">{messageOf(files.error)}</p>}
              {files.isSuccess && own.length === 0 && dirs.length === 0 && <p className="muted small">{t("compile.noRawFiles")}</p>}
              {(own.length > 0 || dirs.length > 0) && (
                <ul className="pick-list">
                  {own.map((n) => (
                    <li key={n.uri}>
                      <label>
                        <input
                          type="checkbox"
                          checked={picked.has(n.uri)}
                          disabled={!picked.has(n.uri) && picked.size >= max}
                          onChange={() => toggle(n.uri)}
                        />
                        <span className="ellipsis">{n.name}</span>
                        <span className="muted small">{formatBytes(n.size)}</span>
                      </label>
                    </li>
                  ))}
                  {dirs.map((n) => (
                    <li key={n.uri} className="pick-subfolder">
                      <label title={t("compile.subfolderTitle")}>
                        <input type="checkbox" checked={shown.has(n.uri)} onChange={(e) => props.onFolder(n.uri, folder, e.target.checked)} />
                        <Folder size={13} aria-hidden />
                        <span className="ellipsis">{n.name}/</span>
                        <span className="muted small">{t("compile.subfolder")}</span>
                      </label>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          );
        })}
      </div>
      {raw.length > 0 && (
        <div className="pick-actions">
          <button type="button" className="link-btn small" onClick={() => props.onChange(new Set(raw.slice(0, max).map((n) => n.uri)))}>
            {raw.length > max ? t("compile.selectFirst", { count: max }) : t("compile.selectAll")}
          </button>
          <button type="button" className="link-btn small" onClick={() => props.onChange(new Set())}>
            {t("compile.clear")}
          </button>
        </div>
      )}
    </fieldset>
  );
}
