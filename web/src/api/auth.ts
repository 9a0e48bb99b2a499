// Authentication endpoints.

import { apiURL, authHeaders, requestJSON } from "./client";
import type { LoginResponse, User } from "./types";

/** login exchanges a username and password for a session token. */
export function login(username: string, password: string): Promise<LoginResponse> {
  return requestJSON<LoginResponse>("/auth/login", {
    method: "POST",
    json: { username, password },
    anonymous: true,
  });
}

/** fetchMe returns the signed-in user (a cheap check that the token still works). */
export function fetchMe(signal?: AbortSignal): Promise<User> {
  return requestJSON<User>("/auth/me", { signal });
}

/**
 * logout ends the session on the server, so a copied token stops working.
 * It signs with headers read when it was asked for (by default at once): the
 * caller may forget the token locally right after. A failure is ignored; the
 * local session ends either way.
 */
export function logout(headers: Record<string, string> = authHeaders()): Promise<void> {
  return fetch(apiURL("/auth/logout"), { method: "POST", headers }).then(
    () => undefined,
    () => undefined,
  );
}
