// The endpoints the Settings page calls.

import { request, requestJSON } from "../api/client";
import type { components } from "../api/schema";

type Schemas = components["schemas"];

/** changePassword keeps this session and ends every other one and every API token. */
export async function changePassword(current: string, next: string): Promise<void> {
  await request("/auth/password", { method: "POST", json: { current_password: current, new_password: next } });
}

/** logoutAll ends every session of the account, this one included. */
export function logoutAll(): Promise<{ sessions_ended: number }> {
  return requestJSON("/auth/logout-all", { method: "POST" });
}

/**
 * APIToken is a personal API token: username is set in the admin listing
 * only, token (the secret) in the creation answer only; scope_uri is null
 * for the whole workspace.
 */
export type APIToken = Schemas["Token"];

/** TokenScope narrows a token to one folder of the owner's tree. */
export interface TokenScope {
  uri: string;
  readOnly: boolean;
}

export async function listTokens(signal?: AbortSignal): Promise<APIToken[]> {
  return (await requestJSON<{ items: APIToken[] | null }>("/auth/tokens", { signal })).items ?? [];
}

/** createToken issues a token; expiresInDays 0 means until revoked. */
export function createToken(name: string, expiresInDays: number, scope?: TokenScope): Promise<APIToken> {
  const json = scope
    ? { name, expires_in_days: expiresInDays, scope_uri: scope.uri, read_only: scope.readOnly }
    : { name, expires_in_days: expiresInDays };
  return requestJSON("/auth/tokens", { method: "POST", json });
}

export async function revokeToken(id: number): Promise<void> {
  await request(`/auth/tokens/${id}`, { method: "DELETE" });
}

export type CheckResult = Schemas["CheckResult"];

/** checkModel makes one tiny call to the model. */
export function checkModel(id: string): Promise<CheckResult> {
  return requestJSON(`/knowledge-agent/models/${encodeURIComponent(id)}/check`, { method: "POST" });
}

/** checkCLIProfile asks the profile's program for its version. */
export function checkCLIProfile(name: string): Promise<CheckResult> {
  return requestJSON(`/knowledge-agent/cli-profiles/${encodeURIComponent(name)}/check`, { method: "POST" });
}
