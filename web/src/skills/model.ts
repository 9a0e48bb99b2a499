// The rules of the skill form, mirrored from the server (issue 16) so the
// form can say what is wrong before a round trip; the server stays the judge.

import i18n from "../i18n";
import { formatNumber } from "../ui/format";
import { ApiError } from "../api/client";
import { hasCode } from "../api/errorCodes";
import type { CompileSkill } from "../api/agent";
import type { Skill, SkillInput } from "../api/skills";

export const NAME_LIMIT = 64;
export const DESCRIPTION_LIMIT = 500;
export const PROMPT_LIMIT = 8000;

export type SkillField = "name" | "description" | "prompt" | "output_language";
export type FieldErrors = Partial<Record<SkillField, string>>;

const FIELDS: readonly string[] = ["name", "description", "prompt", "output_language"];

/** charCount counts code points, as the server does, so a 😀 is one character. */
export function charCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** countText is the prompt counter: "1,234 / 8,000 characters". */
export function countText(n: number, limit = PROMPT_LIMIT): string {
  return i18n.t("skills:count", { n: formatNumber(n), limit: formatNumber(limit) });
}

/** localErrors checks the limits the server enforces; empty when the form may be sent. */
export function localErrors(input: SkillInput): FieldErrors {
  const errs: FieldErrors = {};
  const name = input.name.trim();
  if (name === "") errs.name = i18n.t("skills:err.nameEmpty");
  else if (charCount(name) > NAME_LIMIT) errs.name = i18n.t("skills:err.nameLong", { n: formatNumber(charCount(name)), max: formatNumber(NAME_LIMIT) });
  if (charCount(input.description) > DESCRIPTION_LIMIT)
    errs.description = i18n.t("skills:err.descriptionLong", { n: formatNumber(charCount(input.description)), max: formatNumber(DESCRIPTION_LIMIT) });
  const prompt = charCount(input.prompt);
  if (input.prompt.trim() === "") errs.prompt = i18n.t("skills:err.promptEmpty");
  else if (prompt > PROMPT_LIMIT) errs.prompt = i18n.t("skills:err.promptLong", { n: formatNumber(prompt), max: formatNumber(PROMPT_LIMIT) });
  return errs;
}

/**
 * serverErrors places a failed save on its field: invalid_skill names it in
 * error.field (or error.details.field), a taken name is 409 already_exists. Anything
 * else is null, for the form's general error line.
 */
export function serverErrors(err: unknown): FieldErrors | null {
  if (!(err instanceof ApiError)) return null;
  if (hasCode(err, "already_exists")) return { name: err.message };
  if (err.code !== "invalid_skill") return null;
  const nested = err.details.details;
  const field =
    err.details.field ?? (nested && typeof nested === "object" ? (nested as Record<string, unknown>).field : undefined);
  if (typeof field === "string" && FIELDS.includes(field)) return { [field as SkillField]: err.message };
  return null;
}

/** copyName names a duplicate so it does not collide with taken names: "X (copy)", "X (copy 2)", … */
export function copyName(name: string, taken: Iterable<string>): string {
  const used = new Set([...taken].map((n) => n.toLowerCase()));
  const stem = name.slice(0, NAME_LIMIT - 10);
  for (let i = 1; ; i++) {
    const candidate = i === 1 ? i18n.t("skills:copy", { name: stem }) : i18n.t("skills:copyN", { name: stem, n: i });
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
}

/** duplicateInput is an editable copy of a skill, built-ins included. */
export function duplicateInput(s: Skill, taken: Iterable<string>): SkillInput {
  return { name: copyName(s.name, taken), description: s.description, prompt: s.prompt, output_language: s.output_language };
}

/** emptyInput starts a new skill. */
export function emptyInput(): SkillInput {
  return { name: "", description: "", prompt: "", output_language: null };
}

/**
 * defaultSkillID resolves the server's default skill, which may be given by
 * id or by a built-in's bare name ("concise" for "builtin:concise").
 */
export function defaultSkillID(skills: CompileSkill[], wanted: string | undefined): string {
  if (wanted) {
    const hit = skills.find((s) => s.id === wanted || s.id === `builtin:${wanted}` || (s.builtin && s.name === wanted));
    if (hit) return hit.id;
  }
  return skills[0]?.id ?? "";
}
