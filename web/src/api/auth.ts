// Authentication endpoints.

import { requestJSON } from "./client";
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
