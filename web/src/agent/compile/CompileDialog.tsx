// The compile form (SPEC §7): up to 32 raw files of the current folder, an
// executor (LLM model or server CLI profile) and its settings; submitting
// shows the jobs created and why any file was not enqueued.

import { useTranslation } from "react-i18next";
import { useMemo, useState } from "react";
import type { AgentOptions } from "../../api/agent";
import { messageOf } from "../../ui/errors";
import { useCompileSources, useStartCompile } from "./compileQueries";
import { CompileForm } from "./CompileForm";
import { CompileResult } from "./CompileResult";
import { SourcePicker, rawFiles } from "./SourcePicker";
import { useCompileChoices } from "./useCompileChoices";

interface Props {
  scope: string;
  display: (uri: string) => string;
  options?: AgentOptions;
  onClose: () => void;
  onTasks: () => void;
}

export function CompileDialog({ scope, display, options, onClose, onTasks }: Props) {
  const { t } = useTranslation("agent");
  const form = useCompileChoices(options);
  const maxFiles = form.defaults.max_files ?? 32;
  const files = useCompileSources(scope);
  const raw = useMemo(() => rawFiles(files.data), [files.data]);
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const start = useStartCompile(scope);

  if (start.data) return <CompileResult result={start.data} display={display} onClose={onClose} onTasks={onTasks} />;
  return (
    <CompileForm
      title={t("compile.title", { folder: display(scope) })}
      form={form}
      sample={raw.find((n) => picked.has(n.uri))}
      top={<SourcePicker files={files} raw={raw} picked={picked} max={maxFiles} onChange={setPicked} />}
      error={start.isError ? messageOf(start.error) : null}
      onSubmit={() => start.mutate({ uris: [...picked], ...form.request() })}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="btn" onClick={onClose}>
            {t("common:cancel")}
          </button>
          <button type="submit" className="btn primary" disabled={start.isPending || picked.size === 0 || !form.ready}>
            {start.isPending ? t("compile.submitting") : t("compile.submit", { count: picked.size })}
          </button>
        </>
      }
    />
  );
}
