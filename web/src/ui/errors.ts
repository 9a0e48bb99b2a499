import { ApiError } from "../api/client";
import { canonicalCode } from "../api/errorCodes";
import { USERS, rootURI } from "../api/uri";
import i18n from "../i18n";
import { formatBytes, formatNumber } from "./format";
import { placeName } from "./placeName";

// An error is shown by its code: errors:<code> says it without values, and
// errors:<code>_values with the values of the error object's fields (the
// server adds a field wherever its message carries a value). The English
// message is never parsed: it is the server's word for logs and scripts.

let readerRoot: string | null = null;

/** setErrorReader names the signed-in user, so places in messages are named as that user sees them. */
export function setErrorReader(username: string | null): void {
  readerRoot = username ? rootURI(username) : null;
}

function formatField(name: string, value: unknown): string | null {
  if (typeof value === "number") return name.endsWith("_bytes") ? formatBytes(value) : formatNumber(value);
  if (typeof value !== "string" || value === "") return null;
  if (name !== "uri") return value;
  // Without a reader, a place is named from the top of all trees ("alice/notes/").
  return placeName(value, readerRoot ?? USERS, i18n.t("tree:home"));
}

function placeholders(template: string): string[] {
  return [...template.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1] ?? "");
}

/** translateApiError is the message in the UI's language for a code the errors namespace knows, else null. */
export function translateApiError(err: ApiError): string | null {
  const code = canonicalCode(err.code);
  const key = `errors:${code}`;
  if (!i18n.exists(key)) return null;
  // Every language has the same placeholders (catalogues.test), so English lists them.
  const template: unknown = i18n.getResource("en", "errors", `${code}_values`);
  if (typeof template === "string") {
    const values: Record<string, string> = {};
    for (const name of placeholders(template)) {
      const v = formatField(name, err.details[name]);
      if (v === null) return i18n.t(key);
      values[name] = v;
    }
    return i18n.t(`${key}_values`, values);
  }
  return i18n.t(key);
}

/** errorText says an error object of the API ({code, message}: a job's, an answer's) in the reader's language, by its code. */
export function errorText(error: { code: string; message: string }): string {
  return messageOf(new ApiError(0, error.code, error.message));
}

/** messageOf turns anything thrown into a sentence to show: translated when the API code is known, else the server's own words. */
export function messageOf(err: unknown): string {
  if (err instanceof ApiError) return translateApiError(err) ?? err.message;
  if (err instanceof Error && err.message) return err.message;
  return i18n.t("error.generic");
}
