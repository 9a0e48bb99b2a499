import type { Job } from "../../api/agent";
import { ApiError } from "../../api/client";
import i18n from "../../i18n";
import { messageOf } from "../../ui/errors";

/** attemptText counts a job's tries once it has tried more than once; a first try needs no count. */
export function attemptText(j: Pick<Job, "attempts" | "max_attempts">): string | null {
  if (j.attempts <= 1) return null;
  return j.max_attempts ? i18n.t("agent:tasks.attemptOf", { n: j.attempts, max: j.max_attempts }) : i18n.t("agent:tasks.attempt", { n: j.attempts });
}

/** jobErrorText says why a job failed in the reader's language, by its code (the server's words for a code not known here). */
export function jobErrorText(error: { code: string; message: string }): string {
  return messageOf(new ApiError(0, error.code, error.message));
}
