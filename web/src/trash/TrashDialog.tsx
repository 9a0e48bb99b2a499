// The trash: what the user deleted, where it was, and a way back.

import i18n from "../i18n";
import { useTranslation } from "react-i18next";
import { useState } from "react";
import { useSession } from "../auth/session";
import type { ResourceNode, TrashItem } from "../api/types";
import { folderOf, parentURI } from "../api/uri";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { Dialog } from "../ui/Dialog";
import { messageOf } from "../ui/errors";
import { formatBytes, formatDate } from "../ui/format";
import { usePurgeTrash, useRestoreTrash, useTrash } from "./trashQueries";

type Confirm = { kind: "purge"; item: TrashItem } | { kind: "empty" } | null;

/** TrashDialog lists the trash; onRestored gets the node a restore brought back. */
export function TrashDialog(props: { onClose: () => void; onRestored: (node: ResourceNode, from: TrashItem) => Promise<void> }) {
  const { t } = useTranslation("trash");
  const me = useSession().user?.username;
  const trash = useTrash();
  const restore = useRestoreTrash(props.onRestored);
  const purgeMutation = usePurgeTrash();
  const [confirm, setConfirm] = useState<Confirm>(null);
  const items = trash.data ?? [];
  const busy = restore.isPending;
  const error = restore.isError ? messageOf(restore.error) : null;
  const back = restore.isSuccess ? { node: restore.data, item: restore.variables } : null;
  const notice = back && (back.node.uri === back.item.uri ? t("restored", { name: back.item.name }) : t("restoredAs", { name: back.item.name, as: back.node.name }));

  // A purge's failure shows in its confirmation; it ends the restore's notice.
  const purge = (id: number | null) => {
    restore.reset();
    return purgeMutation.mutateAsync(id);
  };

  return (
    <Dialog title={t("title")} onClose={props.onClose} className="wide trash-dialog">
      <p className="muted small">{t("intro")}</p>
      {trash.isPending && <p className="muted">{t("common:loading")}</p>}
      {trash.isError && (
        <p className="error" role="alert">
          {messageOf(trash.error)}
        </p>
      )}
      {trash.isSuccess && items.length === 0 && <p className="muted">{t("empty")}</p>}
      {items.length > 0 && (
        <div className="trash-scroll">
          <table className="trash-table">
            <thead>
              <tr>
                <th scope="col">{t("col.name")}</th>
                <th scope="col">{t("col.place")}</th>
                <th scope="col">{t("col.deleted")}</th>
                <th scope="col">
                  <span className="sr-only">{t("col.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((it) => (
                <tr key={it.id} data-trash-uri={it.uri}>
                  <td className="trash-name" title={it.uri}>
                    {it.name}
                    {it.kind === "dir" ? "/" : ""}
                    {it.kind === "file" && <span className="muted small"> {formatBytes(it.size)}</span>}
                  </td>
                  <td className="trash-place" title={folderOf(it.uri)}>
                    {placeOf(it.uri)}
                  </td>
                  <td>
                    <time dateTime={it.deleted_at}>{formatDate(it.deleted_at)}</time>
                    {/* Someone the folder was shared with for writing may have deleted it. */}
                    {it.deleted_by && it.deleted_by !== me && <span className="muted small"> {t("by", { name: it.deleted_by })}</span>}
                  </td>
                  <td className="trash-actions">
                    <button
                      type="button"
                      className="btn small"
                      disabled={busy}
                      aria-label={t("restoreOne", { name: it.name })}
                      onClick={() => restore.mutate(it)}
                    >
                      {t("restore")}
                    </button>
                    <button
                      type="button"
                      className="btn small danger-text"
                      disabled={busy}
                      aria-label={t("purgeOne", { name: it.name })}
                      onClick={() => setConfirm({ kind: "purge", item: it })}
                    >
                      {t("purge")}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
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
        <button type="button" className="btn danger" disabled={items.length === 0} onClick={() => setConfirm({ kind: "empty" })}>
          {t("emptyTrash")}
        </button>
        <button type="button" className="btn" onClick={props.onClose} autoFocus>
          {t("common:close")}
        </button>
      </div>
      {confirm?.kind === "purge" && (
        <ConfirmDialog
          title={t("purge")}
          confirmLabel={t("purge")}
          onConfirm={() => purge(confirm.item.id)}
          onClose={() => setConfirm(null)}
        >
          {t("confirmPurge", { name: confirm.item.name })}
        </ConfirmDialog>
      )}
      {confirm?.kind === "empty" && (
        <ConfirmDialog title={t("emptyTrash")} confirmLabel={t("emptyTrash")} onConfirm={() => purge(null)} onClose={() => setConfirm(null)}>
          {t("confirmEmpty", { count: items.length })}
        </ConfirmDialog>
      )}
    </Dialog>
  );
}

/** placeOf names the folder an item was in, relative to the user's root ("home" for the root). */
export function placeOf(uri: string): string {
  const parent = parentURI(uri);
  if (!parent) return "";
  const m = /^kb:\/\/users\/[^/]+\/(.*)$/.exec(parent) ?? /^kb:\/\/me\/(.*)$/.exec(parent);
  if (!m) return parent;
  return m[1] ? m[1] : i18n.t("tree:homeLower");
}
