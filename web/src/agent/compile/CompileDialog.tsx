// The compile form (SPEC §7): up to 32 raw files of the current folder, an
// executor (LLM model or server CLI profile) and its settings; submitting
// shows the jobs created and why any file was not enqueued. The skill picker
// opens the skill dialogs (issue 16) on top, so the form keeps its choices.
// In keep mode ("Keep compiled…") the same choices, with a quiet period, are
// saved on the folder instead: its changes compile themselves from then on.

import { useTranslation } from "react-i18next";
import { useMemo, useState } from "react";
import type { FormEvent } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { LoaderCircle } from "lucide-react";
import { compileFiles, deleteAutoCompile, getAutoCompile, saveAutoCompile } from "../../api/agent";
import type { AgentOptions, AutoCompileRequest, CompileRequest, CompileResponse, CompileSkill } from "../../api/agent";
import { parentURI } from "../../api/uri";
import { listAtLeast } from "../../api/resources";
import { noteSubmittedJobs } from "../../tree/JobWatch";
import { refreshFolders } from "../../tree/useFolderListings";
import { Dialog } from "../../ui/Dialog";
import { messageOf } from "../../ui/errors";
import { formatBytes } from "../../ui/format";
import type { Skill } from "../../api/skills";
import { SkillFlow } from "../../skills/SkillFlow";
import type { SkillContext, SkillFlowStart } from "../../skills/SkillFlow";
import { SkillsDialog } from "../../skills/SkillsDialog";
import { defaultSkillID } from "../../skills/model";

const EFFORTS = ["low", "medium", "high"];
/** how many children of the folder the form loads to pick from */
const PICK_LIMIT = 1000;

interface Props {
  scope: string;
  display: (uri: string) => string;
  options?: AgentOptions;
  onClose: () => void;
  onTasks: () => void;
  /** save the choices on the folder (keep it compiled) instead of compiling picked files */
  keep?: boolean;
}

/** the quiet period's bounds, in seconds (PUT /resources/auto-compile) */
const DEFAULT_QUIET_S = 30;
const MAX_QUIET_S = 86400;

export function CompileDialog({ scope, display, options, onClose, onTasks, keep = false }: Props) {
  const { t } = useTranslation("agent");
  const defaults = options?.compile_defaults ?? {};
  const maxFiles = defaults.max_files ?? 32;
  const models = options?.models ?? [];
  const profiles = options?.cli_profiles ?? [];
  const files = useQuery({
    queryKey: ["compile-files", scope],
    queryFn: ({ signal }) => listAtLeast(scope, PICK_LIMIT, signal),
    enabled: !keep,
  });
  // Keep mode starts from the folder's saved choices, when it has some.
  const savedQuery = useQuery({
    queryKey: ["auto-compile", scope],
    queryFn: ({ signal }) => getAutoCompile(scope, signal),
    enabled: keep,
  });
  const saved = keep ? savedQuery.data ?? null : null;
  const [quietChoice, setQuiet] = useState<number | null>(null);
  const quiet = quietChoice ?? saved?.quiet_s ?? DEFAULT_QUIET_S;
  const raw = useMemo(() => (files.data?.items ?? []).filter((n) => n.kind === "file" && !n.generated), [files.data]);
  const [picked, setPicked] = useState<Set<string>>(new Set());
  // The form may open before /options has loaded (the compile command), so
  // the state holds only what the user chose (null: not chosen) and the
  // effective values fall back to the defaults at render.
  const [executorChoice, setExecutor] = useState<"llm" | "cli" | null>(null);
  const savedExecutor = saved?.executor === "cli" || saved?.cli_profile ? "cli" : saved?.executor === "llm" ? "llm" : null;
  const executor = executorChoice ?? savedExecutor ?? (defaults.executor === "cli" && profiles.length ? "cli" : "llm");
  const [modelChoice, setModelId] = useState<string | null>(null);
  const modelId = modelChoice ?? (saved?.model_id || defaults.model_id || models[0]?.id || "");
  const [profileChoice, setProfile] = useState<string | null>(null);
  const profile = profileChoice ?? (saved?.cli_profile || profiles[0]?.name || "");
  const prof = profiles.find((p) => p.name === profile);
  const [cliModelChoice, setCliModel] = useState<string | null>(null);
  const cliModel = cliModelChoice ?? (saved?.model || prof?.models[0] || "");
  const [effortChoice, setEffort] = useState<string | null>(null);
  const effort = effortChoice ?? (saved?.reasoning_effort || defaults.reasoning_effort || "medium");
  const [budgetChoice, setBudget] = useState<number | null>(null);
  const budget = budgetChoice ?? (saved?.call_budget || defaults.call_budget || 8);
  const [timeoutChoice, setTimeoutS] = useState<number | null>(null);
  const timeout = timeoutChoice ?? (saved?.timeout_s || defaults.timeout_s || 600);
  const [outputChoice, setOutputParent] = useState<string | null>(null);
  const outputParent = outputChoice ?? saved?.output_parent ?? "";
  // A skill saved here is selected at once, before /options lists it.
  const [savedSkill, setSavedSkill] = useState<CompileSkill | null>(null);
  const skills = useMemo(() => {
    const listed = defaults.skills ?? [];
    return savedSkill && !listed.some((s) => s.id === savedSkill.id) ? [...listed, savedSkill] : listed;
  }, [defaults.skills, savedSkill]);
  const [skillChoice, setSkill] = useState<string | null>(null);
  const skill =
    skillChoice !== null && skills.some((s) => s.id === skillChoice) ? skillChoice : defaultSkillID(skills, saved?.skill || defaults.skill);
  const selectedSkill = skills.find((s) => s.id === skill);
  const [skillFlow, setSkillFlow] = useState<SkillFlowStart | null>(null);
  const [skillList, setSkillList] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<CompileResponse | null>(null);
  const qc = useQueryClient();

  const firstFile = raw.find((n) => picked.has(n.uri));
  const skillCtx: SkillContext = {
    models,
    defaultModel: modelId,
    fileURI: firstFile?.uri,
    fileName: firstFile?.name,
    takenNames: skills.map((s) => s.name),
  };
  const skillSaved = (s: Skill) => {
    setSavedSkill({ id: s.id, name: s.name, description: s.description, builtin: s.builtin });
    setSkill(s.id);
  };

  const toggle = (uri: string) =>
    setPicked((s) => {
      const next = new Set(s);
      if (next.has(uri)) next.delete(uri);
      else if (next.size < maxFiles) next.add(uri);
      return next;
    });

  async function submitKeep() {
    const req: AutoCompileRequest = {
      uri: scope,
      quiet_s: quiet,
      executor,
      reasoning_effort: effort,
      call_budget: budget,
      timeout_s: timeout,
      skill: skill || undefined,
      output_parent: outputParent.trim() || undefined,
    };
    if (executor === "llm") req.model_id = modelId;
    else {
      req.cli_profile = profile;
      req.model = cliModel || undefined;
    }
    await saveAutoCompile(req);
  }

  /** afterKeep refreshes what shows the folder's setting: its row's marker and the form. */
  async function afterKeep() {
    await qc.invalidateQueries({ queryKey: ["auto-compile", scope] });
    void refreshFolders(qc, [parentURI(scope) ?? scope]);
    onClose();
  }

  async function stopKeeping() {
    setError(null);
    setBusy(true);
    try {
      await deleteAutoCompile(scope);
      await afterKeep();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (keep) {
      setBusy(true);
      try {
        await submitKeep();
        await afterKeep();
      } catch (err) {
        setError(messageOf(err));
      } finally {
        setBusy(false);
      }
      return;
    }
    const req: CompileRequest = {
      uris: [...picked],
      executor,
      reasoning_effort: effort,
      call_budget: budget,
      timeout_s: timeout,
      skill: skill || undefined,
      output_parent: outputParent.trim() || undefined,
    };
    if (executor === "llm") req.model_id = modelId;
    else {
      req.cli_profile = profile;
      req.model = cliModel || undefined;
    }
    setBusy(true);
    try {
      const res = await compileFiles(req);
      setResult(res);
      // Start watching the new jobs (the tree's badges and wiki/ follow them)
      // and show "queued" on their rows.
      noteSubmittedJobs(qc, res.jobs);
      void refreshFolders(qc, [scope]);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  }

  if (result) {
    return (
      <Dialog title={t("compile.submittedTitle")} onClose={onClose} className="wide compile-dialog">
        <div className="compile-result" data-testid="compile-result">
          <p>
            {result.rejected.length
              ? t("compile.queuedRejected", { count: result.jobs.length, rejected: result.rejected.length })
              : t("compile.queued", { count: result.jobs.length })}
          </p>
          <ul className="job-lines">
            {result.jobs.map((j) => (
              <li key={j.id}>
                <code>{display(j.uri)}</code> <span className={`badge state-${j.state}`}>{t(`common:jobState.${j.state}`, { defaultValue: j.state })}</span>
              </li>
            ))}
          </ul>
          {result.rejected.length > 0 && (
            <ul className="job-lines rejected" aria-label={t("compile.notEnqueued")}>
              {result.rejected.map((r) => (
                <li key={r.uri}>
                  <code>{display(r.uri)}</code> <span className="error small">{r.message}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={onClose}>
            {t("common:close")}
          </button>
          <button type="button" className="btn primary" onClick={onTasks}>
            {t("compile.openTasks")}
          </button>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog title={t(keep ? "compile.keepTitle" : "compile.title", { folder: display(scope) })} onClose={onClose} className="wide compile-dialog">
      <form className="dialog-form compile-form" onSubmit={submit}>
        {keep ? (
          <div className="keep-intro">
            <p className="muted small">{t("compile.keepIntro")}</p>
            {saved && <p className="small" data-testid="keep-status">{saved.pending ? t("compile.keepPending") : t("compile.keepUpToDate")}</p>}
            {saved?.last_error && <p className="error small">{saved.last_error}</p>}
            {savedQuery.isError && <p className="error small">{messageOf(savedQuery.error)}</p>}
          </div>
        ) : (
        <fieldset className="file-pick">
          <legend>
            {t("compile.files", { count: picked.size, max: maxFiles })}
          </legend>
          {files.isPending && (
            <p className="muted small">
              <LoaderCircle size={12} className="spin" aria-hidden /> {t("compile.loadingFiles")}
            </p>
          )}
          {files.isError && <p className="error small">{messageOf(files.error)}</p>}
          {files.isSuccess && raw.length === 0 && <p className="muted small">{t("compile.noRawFiles")}</p>}
          {raw.length > 0 && (
            <>
              <div className="pick-actions">
                <button type="button" className="link-btn small" onClick={() => setPicked(new Set(raw.slice(0, maxFiles).map((n) => n.uri)))}>
                  {raw.length > maxFiles ? t("compile.selectFirst", { count: maxFiles }) : t("compile.selectAll")}
                </button>
                <button type="button" className="link-btn small" onClick={() => setPicked(new Set())}>
                  {t("compile.clear")}
                </button>
              </div>
              <ul className="pick-list">
                {raw.map((n) => (
                  <li key={n.uri}>
                    <label>
                      <input
                        type="checkbox"
                        checked={picked.has(n.uri)}
                        disabled={!picked.has(n.uri) && picked.size >= maxFiles}
                        onChange={() => toggle(n.uri)}
                      />
                      <span className="ellipsis">{n.name}</span>
                      <span className="muted small">{formatBytes(n.size)}</span>
                    </label>
                  </li>
                ))}
              </ul>
            </>
          )}
        </fieldset>
        )}
        <div className="form-grid">
          {keep && (
            <label className="field">
              {t("compile.quiet")}
              <input
                className="text-input"
                type="number"
                min={0}
                max={MAX_QUIET_S}
                value={quiet}
                onChange={(e) => setQuiet(Number(e.target.value))}
              />
            </label>
          )}
          <label className="field">
            {t("compile.executor")}
            <select className="select" aria-label={t("compile.executor")} value={executor} onChange={(e) => setExecutor(e.target.value as "llm" | "cli")}>
              <option value="llm">{t("compile.llm")}</option>
              <option value="cli" disabled={profiles.length === 0}>
                {profiles.length === 0 ? t("compile.cliNone") : t("compile.cliProfile")}
              </option>
            </select>
          </label>
          {executor === "llm" ? (
            <label className="field">
              {t("compile.model")}
              <select className="select" aria-label={t("compile.modelAria")} value={modelId} onChange={(e) => setModelId(e.target.value)}>
                {models.length === 0 && <option value="">{options ? t("compile.noModel") : t("loadingModels")}</option>}
                {models.map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.name}
                  </option>
                ))}
              </select>
            </label>
          ) : (
            <>
              <label className="field">
                {t("compile.cliProfile")}
                <select
                  className="select"
                  aria-label={t("compile.cliProfile")}
                  value={profile}
                  onChange={(e) => {
                    setProfile(e.target.value);
                    setCliModel(profiles.find((p) => p.name === e.target.value)?.models[0] ?? "");
                  }}
                >
                  {profiles.map((p) => (
                    <option key={p.name} value={p.name}>
                      {p.name}
                    </option>
                  ))}
                </select>
              </label>
              <label className="field">
                {t("compile.cliModel")}
                <select className="select" aria-label={t("compile.cliModel")} value={cliModel} onChange={(e) => setCliModel(e.target.value)}>
                  {(prof?.models ?? []).map((m) => (
                    <option key={m} value={m}>
                      {m}
                    </option>
                  ))}
                </select>
              </label>
            </>
          )}
          <label className="field">
            {t("compile.effort")}
            <select className="select" aria-label={t("compile.effort")} value={effort} onChange={(e) => setEffort(e.target.value)}>
              {(executor === "cli" && prof?.efforts.length ? prof.efforts : EFFORTS).map((x) => (
                <option key={x} value={x}>
                  {t(`compile.efforts.${x}`, { defaultValue: x })}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            {t("compile.budget")}
            <input
              className="text-input"
              type="number"
              min={1}
              max={defaults.max_call_budget ?? 64}
              value={budget}
              onChange={(e) => setBudget(Number(e.target.value))}
            />
          </label>
          <label className="field">
            {t("compile.timeout")}
            <input
              className="text-input"
              type="number"
              min={1}
              max={defaults.max_timeout_s ?? 3600}
              value={timeout}
              onChange={(e) => setTimeoutS(Number(e.target.value))}
            />
          </label>
          <div className="field wide-field">
            <label htmlFor="compile-skill">{t("compile.skill")}</label>
            <div className="skill-picker">
              <select id="compile-skill" className="select" value={skill} onChange={(e) => setSkill(e.target.value)}>
                {skills.map((s) => (
                  <option key={s.id} value={s.id} title={s.description}>
                    {s.title || s.name}
                    {s.builtin ? t("compile.builtinSuffix") : ""}
                  </option>
                ))}
                {skills.length === 0 && <option value="">{t("compile.defaultSkill")}</option>}
              </select>
              <button type="button" className="btn small" onClick={() => setSkillFlow({ kind: "new" })}>
                {t("compile.new")}
              </button>
              {selectedSkill?.builtin ? (
                <button
                  type="button"
                  className="btn small"
                  title={t("compile.builtinCopy")}
                  onClick={() => setSkillFlow({ kind: "duplicate", id: selectedSkill.id })}
                >
                  {t("compile.duplicate")}
                </button>
              ) : null}
              <button
                type="button"
                className="btn small"
                disabled={!selectedSkill || selectedSkill.builtin}
                title={selectedSkill?.builtin ? t("compile.builtinReadOnly") : undefined}
                onClick={() => selectedSkill && setSkillFlow({ kind: "edit", id: selectedSkill.id })}
              >
                {t("compile.edit")}
              </button>
              <button type="button" className="btn small" onClick={() => setSkillFlow({ kind: "generate" })}>
                {t("compile.generate")}
              </button>
              <button type="button" className="btn small" onClick={() => setSkillList(true)}>
                {t("compile.skills")}
              </button>
            </div>
            {selectedSkill?.description && <span className="muted small">{selectedSkill.description}</span>}
          </div>
          <label className="field wide-field">
            {t("compile.outputParent")}
            <input
              className="text-input"
              placeholder={t("compile.outputPlaceholder")}
              value={outputParent}
              onChange={(e) => setOutputParent(e.target.value)}
            />
          </label>
        </div>
        {error && (
          <p className="error small" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-actions">
          {keep && saved && (
            <button type="button" className="btn danger" disabled={busy} onClick={() => void stopKeeping()}>
              {t("compile.keepStop")}
            </button>
          )}
          <button type="button" className="btn" onClick={onClose}>
            {t("common:cancel")}
          </button>
          {keep ? (
            <button type="submit" className="btn primary" disabled={busy || savedQuery.isPending || (executor === "llm" && !modelId)}>
              {busy ? t("compile.submitting") : t("compile.keepSubmit")}
            </button>
          ) : (
            <button type="submit" className="btn primary" disabled={busy || picked.size === 0 || (executor === "llm" && !modelId)}>
              {busy ? t("compile.submitting") : t("compile.submit", { count: picked.size })}
            </button>
          )}
        </div>
      </form>
      {skillFlow && (
        <SkillFlow
          start={skillFlow}
          ctx={skillCtx}
          onSaved={(s) => {
            setSkillFlow(null);
            skillSaved(s);
          }}
          onClose={() => setSkillFlow(null)}
        />
      )}
      {skillList && (
        <SkillsDialog
          ctx={skillCtx}
          onSaved={skillSaved}
          onDeleted={(id) => {
            if (savedSkill?.id === id) setSavedSkill(null);
          }}
          onClose={() => setSkillList(false)}
        />
      )}
    </Dialog>
  );
}
