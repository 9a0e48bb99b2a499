// A file's previous uploads, newest first, and a way to bring one back.

import { useTranslation } from "react-i18next";
import { nameOf } from "../api/uri";
import { Dialog } from "../ui/Dialog";
import { messageOf } from "../ui/errors";
import { formatBytes, formatDate } from "../ui/format";
import { useRestoreVersion, useVersions } from "./trashQueries";

/** VersionsDialog lists a file's versions; readOnly (a file shared read-only) leaves out Restore. */
export function VersionsDialog(props: { uri: string; readOnly?: boolean; onClose: () => void }) {
  const { t } = useTranslation("trash");
  const { uri } = props;
  const versions = useVersions(uri);
  const restore = useRestoreVersion(uri);
  const items = versions.data ?? [];
  const error = restore.isError ? messageOf(restore.error) : null;
  const notice = restore.isSuccess ? t("versions.restored", { version: restore.variables.version }) : null;

  return (
    <Dialog title={t("versions.title", { name: nameOf(uri) })} onClose={props.onClose} className="wide versions-dialog">
      {versions.isPending && <p className="muted">{t("common:loading")}</p>}
      {versions.isError && (
        <p className="error" role="alert">
          {messageOf(versions.error)}
        </p>
      )}
      {items.length > 0 && (
        <ol className="version-list" aria-label={t("versions.list")}>
          {items.map((v) => (
            <li key={v.id} className="version-row" data-version={v.version} data-current={v.current}>
              <span className="version-no">v{v.version}</span>
              <span className="version-meta">
                {formatBytes(v.size)} · <time dateTime={v.created_at}>{formatDate(v.created_at)}</time> · {v.author ?? v.by}
              </span>
              {v.current ? (
                <span className="badge">{t("versions.current")}</span>
              ) : props.readOnly ? null : (
                <button
                  type="button"
                  className="btn small"
                  disabled={restore.isPending}
                  aria-label={t("versions.restoreOne", { version: v.version })}
                  onClick={() => restore.mutate({ id: v.id, version: v.version })}
                >
                  {t("restore")}
                </button>
              )}
            </li>
          ))}
        </ol>
      )}
      {versions.isSuccess && items.length === 1 && !props.readOnly && <p className="muted small">{t("versions.none")}</p>}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {notice && (
        <p className="muted" role="status">
          {notice}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={props.onClose} autoFocus>
          {t("common:close")}
        </button>
      </div>
    </Dialog>
  );
}
