// The dialog a tree action opened (treeActions.ts): naming a new folder or a
// new name, confirming a delete, moving, a file's versions, sharing,
// compiling or keeping a folder compiled, the task center, the trash.

import { useTranslation } from "react-i18next";
import { useQueryClient } from "@tanstack/react-query";
import { CompileDialog } from "../agent/compile/CompileDialog";
import { TaskCenter } from "../agent/tasks/TaskCenter";
import { useAgentOptions } from "../api/agentOptions";
import { refreshFolders } from "../api/listingQueries";
import { childURI, displayPath, nameOf, parentURI, renamedURI } from "../api/uri";
import { ShareDialog } from "../share/ShareDialog";
import { TrashDialog } from "../trash/TrashDialog";
import { VersionsDialog } from "../trash/VersionsDialog";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { NameDialog } from "../ui/NameDialog";
import { placeName } from "../ui/placeName";
import type { FolderState } from "./flatten";
import { KeepCompiledDialog } from "./KeepCompiledDialog";
import { MoveDialog } from "./MoveDialog";
import type { TreeDialog } from "./treeActions";
import type { useTreeEdits } from "./useTreeEdits";

export function TreeDialogs(props: {
  dialog: TreeDialog;
  root: string;
  username: string;
  edits: ReturnType<typeof useTreeEdits>;
  /** whether the user may write in a folder (Restore of a version needs it) */
  canWriteIn: (folder: string) => boolean;
  /** the loaded listings: where Move may go */
  folders: ReadonlyMap<string, FolderState>;
  onClose: () => void;
  /** put another dialog in this one's place (the compile result's task center) */
  onSwitch: (dialog: TreeDialog) => void;
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
    case "delete": {
      const [one] = dialog.uris;
      const remove = async () => {
        // One at a time: each delete refetches its folder and moves the selection up.
        for (const uri of dialog.uris) await edits.remove.mutateAsync(uri);
      };
      return (
        <ConfirmDialog title={t("delete")} confirmLabel={t("delete")} onConfirm={remove} onClose={onClose}>
          {dialog.uris.length > 1 || !one
            ? t("confirmDeleteMany", { count: dialog.uris.length })
            : t(one.endsWith("/") ? "confirmDeleteFolder" : "confirmDeleteFile", { name: nameOf(one) })}
        </ConfirmDialog>
      );
    }
    case "move":
      return (
        <MoveDialog
          uris={dialog.uris}
          root={root}
          folders={props.folders}
          move={(uri, target) => edits.move.mutateAsync({ uri, target })}
          onClose={onClose}
        />
      );
    case "compile":
      return <TreeCompileDialog uris={dialog.uris} root={root} onClose={onClose} onTasks={() => props.onSwitch({ kind: "tasks" })} />;
    case "tasks":
      return <TaskCenter display={(u) => placeName(u, root, t("home"))} onClose={onClose} />;
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

/** TreeCompileDialog is the compile form on the tree's selection (nothing selected: the home folder's files). */
function TreeCompileDialog(props: { uris: readonly string[]; root: string; onClose: () => void; onTasks: () => void }) {
  const { t } = useTranslation("tree");
  const options = useAgentOptions();
  const { root } = props;
  return (
    <CompileDialog
      scope={root}
      selection={props.uris}
      display={(u) => placeName(u, root, t("home"))}
      options={options.data}
      onClose={props.onClose}
      onTasks={props.onTasks}
    />
  );
}
