// The dialog a tree action opened (treeActions.ts): naming a new folder or a
// new name, confirming a delete, a file's versions, sharing, keeping a folder
// compiled, the trash.

import { useTranslation } from "react-i18next";
import { useQueryClient } from "@tanstack/react-query";
import { refreshFolders } from "../api/listingQueries";
import { childURI, displayPath, nameOf, parentURI, renamedURI } from "../api/uri";
import { ShareDialog } from "../share/ShareDialog";
import { TrashDialog } from "../trash/TrashDialog";
import { VersionsDialog } from "../trash/VersionsDialog";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { NameDialog } from "../ui/NameDialog";
import { KeepCompiledDialog } from "./KeepCompiledDialog";
import type { TreeDialog } from "./treeActions";
import type { useTreeEdits } from "./useTreeEdits";

export function TreeDialogs(props: {
  dialog: TreeDialog;
  root: string;
  username: string;
  edits: ReturnType<typeof useTreeEdits>;
  /** whether the user may write in a folder (Restore of a version needs it) */
  canWriteIn: (folder: string) => boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation("tree");
  const qc = useQueryClient();
  const { dialog, root, edits, onClose } = props;
  switch (dialog.kind) {
    case "new-folder":
      return (
        <NameDialog
          title={t("newFolder")}
          label={t("nameIn", { folder: nameOf(dialog.parent) || t("homeLower") })}
          submitLabel={t("create")}
          onSubmit={async (name) => {
            await edits.mkdir.mutateAsync({ parent: dialog.parent, uri: childURI(dialog.parent, name, "dir") });
          }}
          onClose={onClose}
        />
      );
    case "rename":
      return (
        <NameDialog
          title={t("rename")}
          label={t("newName")}
          initial={nameOf(dialog.uri)}
          submitLabel={t("rename")}
          onSubmit={async (name) => {
            const target = renamedURI(dialog.uri, name);
            if (target !== dialog.uri) await edits.move.mutateAsync({ uri: dialog.uri, target });
          }}
          onClose={onClose}
        />
      );
    case "delete":
      return (
        <ConfirmDialog title={t("delete")} confirmLabel={t("delete")} onConfirm={() => edits.remove.mutateAsync(dialog.uri)} onClose={onClose}>
          {t(dialog.uri.endsWith("/") ? "confirmDeleteFolder" : "confirmDeleteFile", { name: nameOf(dialog.uri) })}
        </ConfirmDialog>
      );
    case "versions":
      return <VersionsDialog uri={dialog.uri} readOnly={!props.canWriteIn(parentURI(dialog.uri) ?? root)} onClose={onClose} />;
    case "share":
      return (
        <ShareDialog
          uri={dialog.uri}
          root={root}
          username={props.username}
          onClose={onClose}
          onChanged={() => void refreshFolders(qc, [parentURI(dialog.uri) ?? root])}
        />
      );
    case "keep":
      return <KeepCompiledDialog folder={dialog.uri} display={(u) => displayPath(u, root)} onClose={onClose} />;
    case "trash":
      return <TrashDialog onClose={onClose} onRestored={(node) => edits.reveal(node.uri)} />;
  }
}
