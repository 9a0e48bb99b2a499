// Authentication endpoints.

import { apiURL, authHeaders, requestJSON } from "./client";
import type { LoginResponse, SignInOptions, User } from "./types";

/** login exchanges a username and password for a session token. */
export function login(username: string, password: string): Promise<LoginResponse> {
  return requestJSON<LoginResponse>("/auth/login", {
    method: "POST",
    json: { username, password },
    anonymous: true,
  });
}

/** signInOptions says what the login page offers: the password form, and the identity providers. */
export function signInOptions(signal?: AbortSignal): Promise<SignInOptions> {
  return requestJSON<SignInOptions>("/auth/sign-in-options", { anonymous: true, signal });
}

/** redeemTicket trades the one-time ticket a provider's sign-in left in the address for a session token. */
export function redeemTicket(ticket: string): Promise<LoginResponse> {
  return requestJSON<LoginResponse>("/auth/sso/redeem", { method: "POST", json: { ticket }, anonymous: true });
}

/** ssoStartURL is where the browser goes to sign in at provider id, coming back to returnTo. */
export function ssoStartURL(id: string, returnTo: string): string {
  return apiURL(`/auth/sso/${encodeURIComponent(id)}/start`, { return: returnTo });
}

/** fetchMe returns the signed-in user (a cheap check that the token still works). */
export function fetchMe(signal?: AbortSignal): Promise<User> {
  return requestJSON<User>("/auth/me", { signal });
}

/**
 * logout ends the session on the server, so a copied token stops working.
 * It signs with headers read when it was asked for (by default at once): the
 * caller may forget the token locally right after. A failure is ignored; the
 * local session ends either way. A session an identity provider opened
 * answers where to end the provider's session too; that address is returned.
 */
export function logout(headers: Record<string, string> = authHeaders()): Promise<string | null> {
  return fetch(apiURL("/auth/logout"), { method: "POST", headers }).then(
    async (res) => (res.status === 200 ? ((await res.json()) as { end_session_url?: string }).end_session_url ?? null : null),
    () => null,
  );
}
