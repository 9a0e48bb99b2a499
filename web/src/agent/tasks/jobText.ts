import type { Job } from "../../api/agent";
import i18n from "../../i18n";

/** attemptText counts a job's tries once it has tried more than once; a first try needs no count. */
export function attemptText(j: Pick<Job, "attempts" | "max_attempts">): string | null {
  if (j.attempts <= 1) return null;
  return j.max_attempts ? i18n.t("agent:tasks.attemptOf", { n: j.attempts, max: j.max_attempts }) : i18n.t("agent:tasks.attempt", { n: j.attempts });
}
