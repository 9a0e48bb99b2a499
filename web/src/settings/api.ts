// The endpoints the Settings page calls.

import { request, requestJSON } from "../api/client";

/** changePassword keeps this session and ends every other one and every API token. */
export async function changePassword(current: string, next: string): Promise<void> {
  await request("/auth/password", { method: "POST", json: { current_password: current, new_password: next } });
}

/** logoutAll ends every session of the account, this one included. */
export function logoutAll(): Promise<{ sessions_ended: number }> {
  return requestJSON("/auth/logout-all", { method: "POST" });
}

export interface APIToken {
  id: number;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  /** the owner, in the admin listing only */
  username?: string;
  /** the secret, in the creation answer only */
  token?: string;
  /** the one folder the token sees; null for the whole workspace */
  scope_uri?: string | null;
  read_only?: boolean;
}

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

export interface CheckResult {
  ok: boolean;
  latency_ms: number;
  error?: { code: string; message: string };
}

/** checkModel makes one tiny call to the model. */
export function checkModel(id: string): Promise<CheckResult> {
  return requestJSON(`/knowledge-agent/models/${encodeURIComponent(id)}/check`, { method: "POST" });
}

/** checkCLIProfile asks the profile's program for its version. */
export function checkCLIProfile(name: string): Promise<CheckResult> {
  return requestJSON(`/knowledge-agent/cli-profiles/${encodeURIComponent(name)}/check`, { method: "POST" });
}
