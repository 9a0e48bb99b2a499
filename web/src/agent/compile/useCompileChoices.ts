// What the compile form asks besides the files: the executor and its model,
// effort, budget, timeout, skill and output folder. The form may open before
// /options has loaded (the compile command), so the state holds only what the
// user chose and each value falls back, at render, to the folder's saved
// choices (keep mode), then to the server's defaults.

import { useMemo, useState } from "react";
import type { AgentOptions, AutoCompile, CompileRequest, CompileSkill } from "../../api/agent";
import type { Skill } from "../../api/skills";
import { defaultSkillID } from "../../skills/model";

export type Executor = "llm" | "cli";

export interface Choices {
  executor: Executor;
  modelId: string;
  profile: string;
  cliModel: string;
  effort: string;
  budget: number;
  timeout: number;
  outputParent: string;
  skill: string;
}

/** The fields a compile request and a saved "keep compiled" setting share. */
export type ExecutorRequest = Omit<CompileRequest, "uris">;

export function useCompileChoices(options: AgentOptions | undefined, saved: AutoCompile | null = null) {
  const defaults = options?.compile_defaults ?? {};
  const models = options?.models ?? [];
  const profiles = options?.cli_profiles ?? [];
  const [chosen, setChosen] = useState<Partial<Choices>>({});
  const choose = (c: Partial<Choices>) => setChosen((cur) => ({ ...cur, ...c }));
  // A skill saved here is selected at once, before /options lists it.
  const [savedSkill, setSavedSkill] = useState<CompileSkill | null>(null);
  const skills = useMemo(() => {
    const listed = defaults.skills ?? [];
    return savedSkill && !listed.some((s) => s.id === savedSkill.id) ? [...listed, savedSkill] : listed;
  }, [defaults.skills, savedSkill]);

  const savedExecutor = saved?.executor === "cli" || saved?.cli_profile ? "cli" : saved?.executor === "llm" ? "llm" : null;
  const profile = chosen.profile ?? (saved?.cli_profile || profiles[0]?.name || "");
  const prof = profiles.find((p) => p.name === profile);
  const choices: Choices = {
    // Without a model the CLI profiles are what can compile.
    executor: chosen.executor ?? savedExecutor ?? ((defaults.executor === "cli" || (options && models.length === 0)) && profiles.length ? "cli" : "llm"),
    modelId: chosen.modelId ?? (saved?.model_id || defaults.model_id || models[0]?.id || ""),
    profile,
    cliModel: chosen.cliModel ?? (saved?.model || prof?.models[0] || ""),
    effort: chosen.effort ?? (saved?.reasoning_effort || defaults.reasoning_effort || "medium"),
    budget: chosen.budget ?? (saved?.call_budget || defaults.call_budget || 8),
    timeout: chosen.timeout ?? (saved?.timeout_s || defaults.timeout_s || 600),
    outputParent: chosen.outputParent ?? saved?.output_parent ?? "",
    skill:
      chosen.skill !== undefined && skills.some((s) => s.id === chosen.skill)
        ? chosen.skill
        : defaultSkillID(skills, saved?.skill || defaults.skill),
  };

  /** request is the executor part of a compile request or a saved setting. */
  const request = (): ExecutorRequest => {
    const c = choices;
    const req: ExecutorRequest = {
      executor: c.executor,
      reasoning_effort: c.effort,
      call_budget: c.budget,
      timeout_s: c.timeout,
      skill: c.skill || undefined,
      output_parent: c.outputParent.trim() || undefined,
    };
    if (c.executor === "llm") req.model_id = c.modelId;
    else {
      req.cli_profile = c.profile;
      req.model = c.cliModel || undefined;
    }
    return req;
  };

  return {
    options,
    defaults,
    models,
    profiles,
    /** the selected CLI profile */
    prof,
    skills,
    choices,
    choose,
    request,
    /** ready says whether the executor is set well enough to submit */
    ready: !(choices.executor === "llm" && !choices.modelId),
    skillSaved: (s: Skill) => {
      setSavedSkill({ id: s.id, name: s.name, description: s.description, builtin: s.builtin });
      choose({ skill: s.id });
    },
    skillDeleted: (id: string) => {
      if (savedSkill?.id === id) setSavedSkill(null);
    },
  };
}

export type CompileChoices = ReturnType<typeof useCompileChoices>;
