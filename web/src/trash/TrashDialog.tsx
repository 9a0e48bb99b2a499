// The trash: what the user deleted, where it was, and a way back.

import i18n from "../i18n";
import { useTranslation } from "react-i18next";
import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useSession } from "../auth/session";
import { emptyTrash, listTrash, purgeTrash, restoreTrash } from "../api/resources";
import type { ResourceNode, TrashItem } from "../api/types";
import { folderOf, parentURI } from "../api/uri";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { Dialog } from "../ui/Dialog";
import { messageOf } from "../ui/errors";
import { formatBytes, formatDate } from "../ui/format";

export const TRASH_KEY = ["trash"] as const;

type Confirm = { kind: "purge"; item: TrashItem } | { kind: "empty" } | null;

/** TrashDialog lists the trash; onRestored gets the node a restore brought back. */
export function TrashDialog(props: { onClose: () => void; onRestored: (node: ResourceNode, from: TrashItem) => Promise<void> }) {
  const { t } = useTranslation("trash");
  const me = useSession().user?.username;
  const qc = useQueryClient();
  const trash = useQuery({ queryKey: TRASH_KEY, queryFn: ({ signal }) => listTrash(signal), refetchOnMount: "always" });
  const [busy, setBusy] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const items = trash.data ?? [];

  async function restore(item: TrashItem) {
    setBusy(item.id);
    setError(null);
    setNotice(null);
    try {
      const node = await restoreTrash(item.id);
      await props.onRestored(node, item);
      setNotice(node.uri === item.uri ? t("restored", { name: item.name }) : t("restoredAs", { name: item.name, as: node.name }));
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(null);
      await qc.invalidateQueries({ queryKey: TRASH_KEY });
    }
  }

  async function purge(id: number | null) {
    setNotice(null);
    try {
      if (id === null) await emptyTrash();
      else await purgeTrash(id);
    } finally {
      await qc.invalidateQueries({ queryKey: TRASH_KEY });
    }
  }

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
                      disabled={busy !== null}
                      aria-label={t("restoreOne", { name: it.name })}
                      onClick={() => void restore(it)}
                    >
                      {t("restore")}
                    </button>
                    <button
                      type="button"
                      className="btn small danger-text"
                      disabled={busy !== null}
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
