// Uploading into the tree: files picked or dropped on a folder row (or the
// tree's empty space, for the root) go to that folder if the user may write
// there; a single archive first asks whether to import it as a folder.

import { useState } from "react";
import type { DragEvent } from "react";
import { isArchiveName } from "../api/resources";
import { folderOf } from "../api/uri";
import { droppedFiles } from "./uploadPaths";
import { useUploads } from "./useUploads";

export function useTreeUpload(root: string, canWriteIn: (folder: string) => boolean, open: (folder: string) => void) {
  const uploads = useUploads();
  const [archiveChoice, setArchiveChoice] = useState<{ folder: string; file: File } | null>(null);
  const [dropFolder, setDropFolder] = useState<string | null>(null);

  function start(folder: string, files: readonly File[] | FileList | null) {
    if (!files || files.length === 0 || !canWriteIn(folder)) return;
    if (folder !== root) open(folder);
    const list = Array.from(files);
    const only = list.length === 1 ? list[0] : undefined;
    // One archive: offer to import it as a folder, or to upload it as is.
    if (only && isArchiveName(only.name)) {
      setArchiveChoice({ folder, file: only });
      return;
    }
    uploads.start(folder, list);
  }

  function folderAtEvent(e: DragEvent): string {
    const el = (e.target as HTMLElement).closest<HTMLElement>("[data-uri]");
    const uri = el?.dataset.uri;
    return uri ? folderOf(uri) : root;
  }
  /** dropHandlers go on the element files are dropped on */
  const dropHandlers = {
    onDragOver(e: DragEvent) {
      if (!e.dataTransfer.types.includes("Files")) return;
      e.preventDefault();
      const f = folderAtEvent(e);
      const ok = canWriteIn(f);
      e.dataTransfer.dropEffect = ok ? "copy" : "none";
      const target = ok ? f : null;
      if (target !== dropFolder) setDropFolder(target);
    },
    onDragLeave(e: DragEvent) {
      if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDropFolder(null);
    },
    onDrop(e: DragEvent) {
      if (!e.dataTransfer.types.includes("Files")) return;
      e.preventDefault();
      const folder = folderAtEvent(e);
      setDropFolder(null);
      // A dropped folder keeps its subfolders (uploadPaths.ts).
      void droppedFiles(e.dataTransfer).then((files) => start(folder, files));
    },
  };

  return {
    uploads,
    start,
    /** the folder a drag would drop into, to mark it */
    dropFolder,
    dropHandlers,
    /** the archive waiting for the user to say how it goes in */
    archive: archiveChoice && {
      name: archiveChoice.file.name,
      importIt: () => {
        uploads.startImport(archiveChoice.folder, archiveChoice.file);
        setArchiveChoice(null);
      },
      uploadIt: () => {
        uploads.start(archiveChoice.folder, [archiveChoice.file]);
        setArchiveChoice(null);
      },
      cancel: () => setArchiveChoice(null),
    },
  };
}
