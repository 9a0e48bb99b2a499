// The server's error codes come from one registry (internal/apierr/codes.go),
// listed in the OpenAPI document; ErrorCode is that list.

import type { components } from "./schema";
import { ApiError } from "./client";

export type ErrorCode = components["schemas"]["Error"]["error"]["code"];

// Spellings an earlier server answered before the registry merged them
// (apierr.Renamed). A replica of the previous release may still send them,
// so they are accepted for one release; the next one drops this map.
const renamed: Readonly<Record<string, ErrorCode>> = {
  exists: "already_exists",
  name_taken: "already_exists",
  client_closed: "client_closed_request",
  bad_request: "invalid_request",
  missing_credentials: "missing_token",
  database_unavailable: "unavailable",
};

/** canonicalCode is the registered spelling of a code, old spellings included. */
export function canonicalCode(code: string): string {
  return renamed[code] ?? code;
}

/** hasCode tells whether err is the API's error of that code, under its current or its old spelling. */
export function hasCode(err: unknown, code: ErrorCode): boolean {
  return err instanceof ApiError && canonicalCode(err.code) === code;
}
