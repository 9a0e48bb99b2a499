import { ApiError } from "../api/client";
import { canonicalCode } from "../api/errorCodes";
import i18n from "../i18n";
import { formatBytes, formatNumber } from "./format";

// Some server messages carry a value the translation needs (a name, a limit).
// The pattern pulls it out of the English message; when a message of that code
// does not match (another variant of it), the server's own message is shown,
// since a translation without its value would say less than the original.
type Extract = { pattern: RegExp; format?: Record<string, (v: string) => string> };

const bytes = (v: string) => formatBytes(Number(v));
const count = (v: string) => formatNumber(Number(v));

const extracts: Record<string, Extract> = {
  too_many_attempts: { pattern: /try again in (?<seconds>\d+) seconds/ },
  not_found: { pattern: /^no such resource: (?<uri>.+)$/ },
  already_exists: { pattern: /^(?<name>.+) already exists$/ },
  read_only: { pattern: /^(?<uri>\S+) is shared with you read-only/ },
  generated_read_only: { pattern: /^(?<uri>.+) is made by compile and read-only/ },
  not_a_folder: { pattern: /^(?<uri>\S+) is a file, not a folder/ },
  not_a_file: { pattern: /^(?<uri>\S+) is a folder/ },
  self_share: { pattern: /^(?<uri>\S+) is yours already$/ },
  file_too_large: { pattern: /^(?<name>.+) is larger than the upload limit of (?<limit>\d+) bytes/, format: { limit: bytes } },
  upload_too_large: { pattern: /limit of (?<limit>\d+) bytes/, format: { limit: bytes } },
  too_many_files: { pattern: /at most (?<max>\d+) files/, format: { max: count } },
  unknown_model: { pattern: /^unknown model "(?<model>[^"]*)"/ },
  too_many_streams: { pattern: /already have (?<count>\d+) answers/ },
  username_taken: { pattern: /^username "(?<name>[^"]*)" is taken/ },
  weak_password: { pattern: /at least (?<min>\d+) characters/ },
  conversation_not_found: { pattern: /^conversation (?<id>\d+) does not exist/ },
};

/** translateApiError is the message in the UI's language for a code the errors namespace knows, else null. */
export function translateApiError(err: ApiError): string | null {
  const code = canonicalCode(err.code);
  const key = `errors:${code}`;
  if (!i18n.exists(key)) return null;
  const ex = extracts[code];
  if (!ex) return i18n.t(key);
  const groups = ex.pattern.exec(err.message)?.groups;
  if (!groups) return null;
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(groups)) values[k] = ex.format?.[k]?.(v) ?? v;
  return i18n.t(key, values);
}

/** messageOf turns anything thrown into a sentence to show: translated when the API code is known, else the server's own words. */
export function messageOf(err: unknown): string {
  if (err instanceof ApiError) return translateApiError(err) ?? err.message;
  if (err instanceof Error && err.message) return err.message;
  return i18n.t("error.generic");
}
