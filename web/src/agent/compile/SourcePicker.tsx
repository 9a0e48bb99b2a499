// The files a compile starts from: the raw (not compiled) files of the
// folder, at most max of them picked.

import { useTranslation } from "react-i18next";
import { LoaderCircle } from "lucide-react";
import type { Dispatch, SetStateAction } from "react";
import type { UseQueryResult } from "@tanstack/react-query";
import type { Listing, ResourceNode } from "../../api/types";
import { messageOf } from "../../ui/errors";
import { formatBytes } from "../../ui/format";

/** rawFiles are the listed files a compile can start from. */
export function rawFiles(listing: Listing | undefined): ResourceNode[] {
  return (listing?.items ?? []).filter((n) => n.kind === "file" && !n.generated);
}

export function SourcePicker(props: {
  files: UseQueryResult<Listing>;
  raw: readonly ResourceNode[];
  picked: ReadonlySet<string>;
  max: number;
  onChange: Dispatch<SetStateAction<Set<string>>>;
}) {
  const { t } = useTranslation("agent");
  const { files, raw, picked, max } = props;
  const toggle = (uri: string) =>
    props.onChange((s) => {
      const next = new Set(s);
      if (next.has(uri)) next.delete(uri);
      else if (next.size < max) next.add(uri);
      return next;
    });
  return (
    <fieldset className="file-pick">
      <legend>{t("compile.files", { count: picked.size, max })}</legend>
      {files.isPending && (
        <p className="muted small">
          <LoaderCircle size={12} className="spin" aria-hidden /> {t("compile.loadingFiles")}
        </p>
      )}
      {files.isError && <p className="error small">{messageOf(files.error)}</p>}
      {files.isSuccess && raw.length === 0 && <p className="muted small">{t("compile.noRawFiles")}</p>}
      {raw.length > 0 && (
        <>
          <div className="pick-actions">
            <button type="button" className="link-btn small" onClick={() => props.onChange(new Set(raw.slice(0, max).map((n) => n.uri)))}>
              {raw.length > max ? t("compile.selectFirst", { count: max }) : t("compile.selectAll")}
            </button>
            <button type="button" className="link-btn small" onClick={() => props.onChange(new Set())}>
              {t("compile.clear")}
            </button>
          </div>
          <ul className="pick-list">
            {raw.map((n) => (
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
          </ul>
        </>
      )}
    </fieldset>
  );
}
