import { ApiError } from "../api/client";
import i18n from "../i18n";

/** messageOf turns anything thrown into a sentence to show. */
export function messageOf(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error && err.message) return err.message;
  return i18n.t("error.generic");
}
