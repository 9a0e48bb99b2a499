// "Move…" from the rows' context menu: the selected files and folders go,
// one after another, into a folder of the own tree the tree has loaded.

import { useTranslation } from "react-i18next";
import { useState } from "react";
import type { FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { childURI, displayPath, isFolderURI, isWithin, nameOf, parentURI } from "../api/uri";
import { Dialog } from "../ui/Dialog";
import { messageOf } from "../ui/errors";
import { canWriteIn } from "./access";
import type { FolderState } from "./flatten";

/**
 * moveTargets are the folders uris may move into: the root and every folder
 * of the own tree the loaded listings name, not compile output, not inside
 * what moves, writable; the one folder all of them are in already is left out.
 */
export function moveTargets(uris: readonly string[], root: string, folders: ReadonlyMap<string, FolderState>): string[] {
  const known = new Set([root]);
  for (const [f, st] of folders) {
    if (isWithin(f, root)) known.add(f);
    for (const n of st.items) if (n.kind === "dir" && !n.generated && isWithin(n.uri, root)) known.add(n.uri);
  }
  const generated = new Set([...folders.values()].flatMap((st) => st.items.filter((n) => n.generated).map((n) => n.uri)));
  const parents = new Set(uris.map((u) => parentURI(u)));
  return [...known]
    .filter((f) => !generated.has(f) && ![...generated].some((g) => isFolderURI(g) && isWithin(f, g)))
    .filter((f) => !uris.some((u) => isWithin(f, u)))
    .filter((f) => !(parents.size === 1 && parents.has(f)))
    .filter((f) => canWriteIn(f, root, folders))
    .sort((a, b) => a.localeCompare(b));
}

export function MoveDialog(props: {
  uris: readonly string[];
  root: string;
  folders: ReadonlyMap<string, FolderState>;
  move: (uri: string, target: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTranslation("tree");
  const { uris, root } = props;
  const targets = moveTargets(uris, root, props.folders);
  const [to, setTo] = useState(targets[0] ?? "");
  const label = (f: string) => (f === root ? t("home") : displayPath(f, root));
  const save = useMutation({
    mutationFn: async (folder: string) => {
      // One at a time: each move refetches the folders it changed.
      for (const u of uris) {
        if (parentURI(u) === folder) continue;
        await props.move(u, childURI(folder, nameOf(u), isFolderURI(u) ? "dir" : "file"));
      }
    },
    onSuccess: () => props.onClose(),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (to) save.mutate(to);
  };
  return (
    <Dialog title={t("move.title")} onClose={props.onClose}>
      <form className="dialog-form" onSubmit={submit}>
        <p className="dialog-text">{uris.length === 1 ? t("move.one", { name: nameOf(uris[0]!) }) : t("move.many", { count: uris.length })}</p>
        {targets.length === 0 ? (
          <p className="muted small">{t("move.none")}</p>
        ) : (
          <label className="field">
            <span>{t("move.to")}</span>
            <select className="select" autoFocus value={to} onChange={(e) => setTo(e.target.value)}>
              {targets.map((f) => (
                <option key={f} value={f}>
                  {label(f)}
                </option>
              ))}
            </select>
          </label>
        )}
        {save.isError && (
          <p className="error" role="alert">
            {messageOf(save.error)}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={props.onClose}>
            {t("common:cancel")}
          </button>
          <button type="submit" className="btn primary" disabled={!to || save.isPending}>
            {t("move.submit")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
