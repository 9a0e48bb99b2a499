// The signed-in session: who is logged in, sign-in, sign-out, and the 401 path.

import { createContext, useCallback, useContext, useEffect, useMemo, useState } from "react";
import type { ReactNode } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { authHeaders, onUnauthorized } from "../api/client";
import i18n from "../i18n";
import { login as apiLogin, logout as apiLogout } from "../api/auth";
import { clearSession, loadSession, saveSession } from "../api/token";
import type { User } from "../api/types";
import { setErrorReader } from "../ui/errors";

interface SessionValue {
  user: User | null;
  /** notice is shown on the login page, e.g. after the session expired. */
  notice: string | null;
  signIn: (username: string, password: string) => Promise<void>;
  signOut: () => void;
  /** signedInHere: this page signed in (rather than loading a kept session), so focus has nowhere to be yet. */
  signedInHere: boolean;
}

export const SessionContext = createContext<SessionValue | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [user, setUser] = useState<User | null>(() => loadSession()?.user ?? null);
  const [notice, setNotice] = useState<string | null>(null);
  const [signedInHere, setSignedInHere] = useState(false);

  const endSession = useCallback(
    (message: string | null) => {
      clearSession();
      queryClient.clear();
      setUser(null);
      setNotice(message);
    },
    [queryClient],
  );

  // Messages name places as this user sees them ("Home", a path), not by address.
  useEffect(() => setErrorReader(user?.username ?? null), [user]);

  useEffect(() => {
    onUnauthorized(() => endSession(i18n.t("auth:sessionEnded")));
    return () => onUnauthorized(null);
  }, [endSession]);

  const signIn = useCallback(async (username: string, password: string) => {
    const res = await apiLogin(username, password);
    saveSession({ token: res.token, user: res.user, expiresAt: res.expires_at });
    setNotice(null);
    setSignedInHere(true);
    setUser(res.user);
  }, []);

  // The request runs after the token is forgotten here: it carries the headers read before.
  const { mutate: logout } = useMutation({ mutationFn: apiLogout });
  const signOut = useCallback(() => {
    logout(authHeaders());
    endSession(null);
  }, [logout, endSession]);

  const value = useMemo(() => ({ user, notice, signIn, signOut, signedInHere }), [user, notice, signIn, signOut, signedInHere]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const v = useContext(SessionContext);
  if (!v) throw new Error("useSession outside SessionProvider");
  return v;
}
