// The signed-in session: who is logged in, sign-in, sign-out, and the 401 path.

import { useCallback, useContext, useEffect, useMemo, useRef, useState } from "react";
import type { ReactNode } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError, authHeaders, onUnauthorized } from "../api/client";
import i18n from "../i18n";
import { login as apiLogin, logout as apiLogout, redeemTicket } from "../api/auth";
import { clearSession, loadSession, saveSession } from "../api/token";
import type { LoginResponse, User } from "../api/types";
import { navigate } from "../layout/route";
import { setErrorReader } from "../ui/errors";
import { SessionContext } from "./sessionContext";
import type { SessionValue } from "./sessionContext";


export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [user, setUser] = useState<User | null>(() => loadSession()?.user ?? null);
  const [notice, setNotice] = useState<string | null>(null);
  const [signedInHere, setSignedInHere] = useState(false);
  const [back] = useState(readProviderAnswer);
  const [ssoError, setSSOError] = useState<string | null>(back?.error ?? null);
  const [redeeming, setRedeeming] = useState(Boolean(back?.ticket));

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

  const begin = useCallback((res: LoginResponse) => {
    saveSession({ token: res.token, user: res.user, expiresAt: res.expires_at });
    setNotice(null);
    setSSOError(null);
    setSignedInHere(true);
    setUser(res.user);
  }, []);

  const signIn = useCallback(
    async (username: string, password: string) => begin(await apiLogin(username, password)),
    [begin],
  );

  // A provider sent the browser back with a one-time ticket: trade it once for a
  // session (the ref keeps a second run of the effect from spending it twice).
  const redeemed = useRef(false);
  useEffect(() => {
    if (!back) return;
    window.history.replaceState(null, "", window.location.pathname + window.location.search);
    if (!back.ticket || redeemed.current) return;
    redeemed.current = true;
    redeemTicket(back.ticket)
      .then((res) => {
        begin(res);
        navigate(back.returnTo, { replace: true });
      })
      .catch((err: unknown) => setSSOError(err instanceof ApiError ? err.code : "internal"))
      .finally(() => setRedeeming(false));
  }, [back, begin]);

  // The request runs after the token is forgotten here: it carries the headers read before.
  // A provider's session ends at the provider too, which then sends the browser back here.
  const { mutate: logout } = useMutation({
    mutationFn: apiLogout,
    onSuccess: (endSessionURL) => {
      if (endSessionURL) window.location.assign(endSessionURL);
    },
  });
  const signOut = useCallback(() => {
    logout(authHeaders());
    endSession(null);
  }, [logout, endSession]);

  const value = useMemo(
    () => ({ user, notice, ssoError, redeeming, signIn, signOut, signedInHere }),
    [user, notice, ssoError, redeeming, signIn, signOut, signedInHere],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

interface ProviderAnswer {
  ticket?: string;
  error?: string;
  returnTo: string;
}

/**
 * readProviderAnswer reads the outcome of a provider's sign-in from the
 * address's fragment (#sso_ticket=…&return=… or #sso_error=…); the provider
 * effect then removes it, so the one-time ticket stays out of history.
 */
function readProviderAnswer(): ProviderAnswer | null {
  const frag = new URLSearchParams(window.location.hash.replace(/^#/, ""));
  const ticket = frag.get("sso_ticket") ?? undefined;
  const error = frag.get("sso_error") ?? undefined;
  if (!ticket && !error) return null;
  const returnTo = frag.get("return") ?? "/";
  return { ticket, error, returnTo: returnTo.startsWith("/") && !returnTo.startsWith("//") ? returnTo : "/" };
}

export function useSession(): SessionValue {
  const v = useContext(SessionContext);
  if (!v) throw new Error("useSession outside SessionProvider");
  return v;
}
