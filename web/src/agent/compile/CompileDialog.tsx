// The compile form (SPEC §7): up to 32 raw files of a folder, or of the
// files and folders selected in the tree, an executor (LLM model or server
// CLI profile) and its settings; submitting follows the jobs created, live,
// and says why any file was not enqueued.

import { useTranslation } from "react-i18next";
import { useEffect, useMemo, useState } from "react";
import type { AgentOptions } from "../../api/agent";
import { isFolderURI, isWithin, parentURI } from "../../api/uri";
import { messageOf } from "../../ui/errors";
import { useCompileSourceList, useStartCompile } from "./compileQueries";
import type { CompileBatch } from "./compileQueries";
import { CompileForm } from "./CompileForm";
import { CompileResult } from "./CompileResult";
import { SourcePicker, rawFiles } from "./SourcePicker";
import { useCompileChoices } from "./useCompileChoices";
import { BudgetNotice } from "../../usage/BudgetNotice";

interface Props {
  /** the folder the form picks from when nothing is selected */
  scope: string;
  /** what was selected in the tree: files come ticked in their folders, a folder with all its files */
  selection?: readonly string[];
  display: (uri: string) => string;
  options?: AgentOptions;
  onClose: () => void;
  onTasks: () => void;
}

/** startOf is the picker's first state for a selection: the folders shown, the files ticked, the folders whose files tick once listed. */
export function startOf(scope: string, selection: readonly string[] = []) {
  const groups: string[] = [];
  const picked = new Set<string>();
  const whole = new Set<string>();
  const show = (f: string) => {
    if (!groups.includes(f)) groups.push(f);
  };
  for (const uri of selection) {
    if (isFolderURI(uri)) {
      show(uri);
      whole.add(uri);
    } else {
      show(parentURI(uri) ?? scope);
      picked.add(uri);
    }
  }
  if (groups.length === 0) show(scope);
  return { groups, picked, whole };
}

export function CompileDialog({ scope, selection, display, options, onClose, onTasks }: Props) {
  const { t } = useTranslation("agent");
  const form = useCompileChoices(options);
  const maxFiles = form.defaults.max_files ?? 32;
  const [start] = useState(() => startOf(scope, selection));
  const [groups, setGroups] = useState<string[]>(start.groups);
  const [picked, setPicked] = useState<Set<string>>(start.picked);
  const [whole, setWhole] = useState<Set<string>>(start.whole);
  const lists = useCompileSourceList(groups);
  const sources = useMemo(() => groups.map((folder, i) => ({ folder, files: lists[i]! })), [groups, lists]);
  const compile = useStartCompile();

  // A folder ticked (in the tree, or as a subfolder here) brings all its raw files, once listed.
  useEffect(() => {
    const loaded = sources.filter((s) => whole.has(s.folder) && s.files.data);
    if (loaded.length === 0) return;
    setPicked((cur) => {
      const next = new Set(cur);
      for (const s of loaded) for (const n of rawFiles(s.files.data)) if (next.size < maxFiles) next.add(n.uri);
      return next;
    });
    setWhole((w) => new Set([...w].filter((f) => !loaded.some((s) => s.folder === f))));
  }, [sources, whole, maxFiles]);

  const onFolder = (folder: string, parent: string, on: boolean) => {
    if (on) {
      setGroups((g) => {
        if (g.includes(folder)) return g;
        // Below its parent and the parent's other subfolders shown.
        let at = g.indexOf(parent);
        while (at + 1 < g.length && isWithin(g[at + 1]!, parent)) at++;
        return [...g.slice(0, at + 1), folder, ...g.slice(at + 1)];
      });
      setWhole((w) => new Set([...w, folder]));
      return;
    }
    setGroups((g) => g.filter((f) => !isWithin(f, folder)));
    setWhole((w) => new Set([...w].filter((f) => !isWithin(f, folder))));
    setPicked((p) => new Set([...p].filter((u) => !isWithin(u, folder))));
  };

  const batches = (): CompileBatch[] => {
    const byFolder = new Map<string, string[]>();
    for (const uri of picked) {
      const folder = parentURI(uri) ?? scope;
      byFolder.set(folder, [...(byFolder.get(folder) ?? []), uri]);
    }
    const rest = form.request();
    return [...byFolder].map(([folder, uris]) => ({ folder, req: { uris, ...rest } }));
  };

  if (compile.data) return <CompileResult result={compile.data} display={display} onClose={onClose} onTasks={onTasks} />;
  const sample = sources.flatMap((s) => rawFiles(s.files.data)).find((n) => picked.has(n.uri));
  const title = groups.length === 1 ? display(groups[0]!) : t("compile.folders", { count: groups.length });
  return (
    <CompileForm
      title={t("compile.title", { folder: title })}
      form={form}
      sample={sample}
      ready={!sources.some((s) => s.files.isPending)}
      top={
        <>
          <BudgetNotice />
          <SourcePicker groups={sources} display={display} picked={picked} max={maxFiles} onChange={setPicked} onFolder={onFolder} />
        </>
      }
      error={compile.isError ? messageOf(compile.error) : null}
      onSubmit={() => compile.mutate(batches())}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="btn" onClick={onClose}>
            {t("common:cancel")}
          </button>
          <button type="submit" className="btn primary" disabled={compile.isPending || picked.size === 0 || !form.ready}>
            {compile.isPending ? t("compile.submitting") : t("compile.submit", { count: picked.size })}
          </button>
        </>
      }
    />
  );
}
