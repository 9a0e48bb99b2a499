// Session token persistence in localStorage.

const TOKEN_KEY = "knowspace.token";
const USER_KEY = "knowspace.user";
const EXPIRES_KEY = "knowspace.expires_at";

import type { User } from "./types";

export interface StoredSession {
  token: string;
  user: User;
  expiresAt: string;
}

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** readToken returns the stored bearer token, or null. */
export function readToken(): string | null {
  return storage()?.getItem(TOKEN_KEY) ?? null;
}

/** saveSession stores a fresh login. */
export function saveSession(s: StoredSession): void {
  const st = storage();
  if (!st) return;
  st.setItem(TOKEN_KEY, s.token);
  st.setItem(USER_KEY, JSON.stringify(s.user));
  st.setItem(EXPIRES_KEY, s.expiresAt);
}

/** clearSession forgets the stored login. */
export function clearSession(): void {
  const st = storage();
  if (!st) return;
  st.removeItem(TOKEN_KEY);
  st.removeItem(USER_KEY);
  st.removeItem(EXPIRES_KEY);
}

/** loadSession returns the stored login unless it is missing, corrupt or expired. */
export function loadSession(now: Date = new Date()): StoredSession | null {
  const st = storage();
  if (!st) return null;
  const token = st.getItem(TOKEN_KEY);
  const userText = st.getItem(USER_KEY);
  const expiresAt = st.getItem(EXPIRES_KEY) ?? "";
  if (!token || !userText) return null;
  let user: User;
  try {
    user = JSON.parse(userText) as User;
  } catch {
    clearSession();
    return null;
  }
  if (!user || typeof user.username !== "string") {
    clearSession();
    return null;
  }
  const exp = Date.parse(expiresAt);
  if (!Number.isNaN(exp) && exp <= now.getTime()) {
    clearSession();
    return null;
  }
  return { token, user, expiresAt };
}
