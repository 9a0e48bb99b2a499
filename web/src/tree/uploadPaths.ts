// Where an uploaded file goes below the target folder. A folder picked with
// "Upload folder" gives each file a webkitRelativePath; a folder dropped on
// the tree is walked through its entries, and the path each file had in it
// is kept here, since a File's name cannot carry one.

const dropped = new WeakMap<File, string>();

/** relativePath is the file's path below the upload's target: "a/b/c.md", or its bare name. */
export function relativePath(f: File): string {
  return dropped.get(f) || f.webkitRelativePath || f.name;
}

/** hasFolders says whether any file goes into a subfolder (the upload then asks the server to create them). */
export function hasFolders(files: readonly File[]): boolean {
  return files.some((f) => relativePath(f).includes("/"));
}

/** topFolders names the folders a batch of files recreates, for the upload's label. */
export function topFolders(files: readonly File[]): string[] {
  const tops = new Set<string>();
  for (const f of files) {
    const p = relativePath(f);
    const i = p.indexOf("/");
    if (i > 0) tops.add(p.slice(0, i));
  }
  return [...tops];
}

// readEntries answers at most 100 entries a call (Chromium); it is called
// until it answers none.
function readAll(dir: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = dir.createReader();
  const out: FileSystemEntry[] = [];
  return new Promise((resolve, reject) => {
    const next = () =>
      reader.readEntries((batch) => {
        if (batch.length === 0) return resolve(out);
        out.push(...batch);
        next();
      }, reject);
    next();
  });
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

async function walk(entry: FileSystemEntry, prefix: string, out: File[]): Promise<void> {
  const path = prefix + entry.name;
  if (entry.isFile) {
    const f = await fileOf(entry as FileSystemFileEntry);
    dropped.set(f, path);
    out.push(f);
  } else if (entry.isDirectory) {
    for (const child of await readAll(entry as FileSystemDirectoryEntry)) await walk(child, path + "/", out);
  }
}

/**
 * droppedFiles returns every file of a drop, with the folders it came in:
 * the entries must be taken before the drop event returns, the files may
 * be read after.
 */
export async function droppedFiles(dt: DataTransfer): Promise<File[]> {
  const entries = Array.from(dt.items)
    .filter((it) => it.kind === "file")
    .map((it) => it.webkitGetAsEntry?.())
    .filter((e): e is FileSystemEntry => !!e);
  if (!entries.some((e) => e.isDirectory)) return Array.from(dt.files);
  const out: File[] = [];
  for (const e of entries) await walk(e, "", out);
  return out;
}
