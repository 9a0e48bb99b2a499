// The tree's writes: new folder, rename or move, delete and copy to edit.
// Each refetches the folders it changed and forgets what it made stale; the
// tree's open folders and selection follow the node.

import { useEffect } from "react";
import type { Dispatch, SetStateAction } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { forgetBelow, refreshFolders } from "../api/listingQueries";
import { queryKeys } from "../api/queryKeys";
import { copyToEdit, createFolder, deleteResource, renameResource } from "../api/resources";
import { ancestorFolders, isWithin, parentURI } from "../api/uri";
import { messageOf } from "../ui/errors";

export interface TreeView {
  root: string;
  selected: string | null;
  onSelect: (uri: string | null, opts?: { open?: boolean; reveal?: boolean }) => void;
  setExpanded: Dispatch<SetStateAction<Set<string>>>;
  toggle: (uri: string, open?: boolean) => void;
}

export function useTreeEdits(view: TreeView) {
  const qc = useQueryClient();
  const { root, selected, onSelect, setExpanded } = view;

  /** reveal opens the folders down to uri and refetches them: a node came back or was copied there. */
  async function reveal(uri: string) {
    const opened = ancestorFolders(uri, root);
    setExpanded((s) => new Set([...s, ...opened]));
    await refreshFolders(qc, [...new Set([root, parentURI(uri) ?? root, ...opened])]);
  }

  const mkdir = useMutation({
    mutationFn: ({ uri }: { parent: string; uri: string }) => createFolder(uri),
    onSuccess: async (_, { parent, uri }) => {
      if (parent !== root) view.toggle(parent, true);
      await refreshFolders(qc, [parent]);
      onSelect(uri);
    },
  });

  const move = useMutation({
    mutationFn: ({ uri, target }: { uri: string; target: string }) => renameResource(uri, target),
    onSuccess: async (moved, { uri, target }) => {
      const to = moved?.uri ?? target;
      // Forget expansion and cached pages below the old name.
      setExpanded((s) => new Set([...s].map((u) => (isWithin(u, uri) ? to + u.slice(uri.length) : u))));
      forgetBelow(qc, uri);
      await refreshFolders(qc, [parentURI(uri) ?? root, parentURI(to) ?? root]);
      if (selected && isWithin(selected, uri)) onSelect(to + selected.slice(uri.length));
    },
  });

  const remove = useMutation({
    mutationFn: (uri: string) => deleteResource(uri),
    onSuccess: async (_, uri) => {
      void qc.invalidateQueries({ queryKey: queryKeys.trash() });
      setExpanded((s) => new Set([...s].filter((u) => !isWithin(u, uri))));
      forgetBelow(qc, uri);
      await refreshFolders(qc, [parentURI(uri) ?? root]);
      // The parent takes the selection, and the chat with it: a chat left
      // on a folder that is gone could only fail.
      if (selected && isWithin(selected, uri)) onSelect(parentURI(uri) ?? root);
    },
  });

  // The copy lands outside the compile output; it opens, selected, there.
  const copy = useMutation({
    mutationFn: (uri: string) => copyToEdit(uri),
    onSuccess: async (node) => {
      await reveal(node.uri);
      onSelect(node.uri, { open: true, reveal: true });
    },
  });
  // Its failure is about the node it was asked on.
  const forgetCopy = copy.reset;
  useEffect(() => forgetCopy(), [selected, forgetCopy]);

  return {
    mkdir,
    move,
    remove,
    copy,
    reveal,
    /** copyError is why the last copy to edit failed, until the selection changes */
    copyError: copy.isError ? messageOf(copy.error) : null,
  };
}
