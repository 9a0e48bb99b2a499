// "Keep compiled…" (the compile form's save mode): the same choices and a
// quiet period, saved on the folder instead of compiling picked files; its
// changes compile themselves from then on. It starts from the folder's saved
// choices, when it has some.

import { useTranslation } from "react-i18next";
import { useState } from "react";
import type { AgentOptions } from "../../api/agent";
import { messageOf } from "../../ui/errors";
import { useAutoCompile, useKeepCompiled } from "./compileQueries";
import { NumberField } from "./CompileOptions";
import { CompileForm } from "./CompileForm";
import { useCompileChoices } from "./useCompileChoices";

/** the quiet period's bounds, in seconds (PUT /resources/auto-compile) */
const DEFAULT_QUIET_S = 30;
const MAX_QUIET_S = 86400;

export function KeepCompiledForm(props: { scope: string; display: (uri: string) => string; options?: AgentOptions; onClose: () => void }) {
  const { t } = useTranslation("agent");
  const { scope, onClose } = props;
  const savedQuery = useAutoCompile(scope);
  const saved = savedQuery.data ?? null;
  const form = useCompileChoices(props.options, saved);
  const [quietChoice, setQuiet] = useState<number | null>(null);
  const quiet = quietChoice ?? saved?.quiet_s ?? DEFAULT_QUIET_S;
  const keep = useKeepCompiled(scope);

  const top = (
    <div className="keep-intro">
      <p className="muted small">{t("compile.keepIntro")}</p>
      {saved && <p className="small" data-testid="keep-status">{saved.pending ? t("compile.keepPending") : t("compile.keepUpToDate")}</p>}
      {saved?.last_error && <p className="error small">{saved.last_error}</p>}
      {savedQuery.isError && <p className="error small">{messageOf(savedQuery.error)}</p>}
    </div>
  );
  return (
    <CompileForm
      title={t("compile.keepTitle", { folder: props.display(scope) })}
      form={form}
      top={top}
      lead={<NumberField label={t("compile.quiet")} min={0} max={MAX_QUIET_S} value={quiet} onChange={setQuiet} />}
      error={keep.isError ? messageOf(keep.error) : null}
      onSubmit={() => keep.mutate({ uri: scope, quiet_s: quiet, ...form.request() }, { onSuccess: onClose })}
      onClose={onClose}
      actions={
        <>
          {saved && (
            <button type="button" className="btn danger" disabled={keep.isPending} onClick={() => keep.mutate(null, { onSuccess: onClose })}>
              {t("compile.keepStop")}
            </button>
          )}
          <button type="button" className="btn" onClick={onClose}>
            {t("common:cancel")}
          </button>
          <button type="submit" className="btn primary" disabled={keep.isPending || savedQuery.isPending || !form.ready}>
            {keep.isPending ? t("compile.submitting") : t("compile.keepSubmit")}
          </button>
        </>
      }
    />
  );
}
