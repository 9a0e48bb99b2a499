import { useEffect, useRef, useState } from "react";
import type { FormEvent } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { BookOpen, LogIn } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useSession } from "./session";
import { signInOptions, ssoStartURL } from "../api/auth";
import { messageOf } from "../ui/errors";
import i18n from "../i18n";

/** ssoMessage explains a provider's failed sign-in by its code. */
function ssoMessage(code: string): string {
  const key = `errors:${code}`;
  return i18n.exists(key) ? i18n.t(key) : i18n.t("auth:ssoFailed", { code });
}

export function LoginPage() {
  const { t } = useTranslation("auth");
  const { signIn, notice, ssoError, redeeming } = useSession();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const options = useQuery({ queryKey: ["sign-in-options"], queryFn: ({ signal }) => signInOptions(signal), staleTime: Infinity, retry: 1 });
  // A session is written on the server; on success the workspace replaces this page.
  const login = useMutation({ mutationFn: (c: { username: string; password: string }) => signIn(c.username, c.password) });
  const error = login.isError ? messageOf(login.error) : ssoError ? ssoMessage(ssoError) : null;
  const busy = login.isPending || login.isSuccess || redeeming;
  const providers = options.data?.providers ?? [];
  // Until the server says, the form waits; if it cannot say, the form is the way in.
  const passwords = options.data ? options.data.password_login : options.isError;
  const returnTo = window.location.pathname + window.location.search;
  // Without the form, the first provider's button is where the next action is
  // (React's autoFocus does not reach links).
  const firstProvider = useRef<HTMLAnchorElement>(null);
  const providerFirst = options.data && !passwords && providers.length > 0;
  useEffect(() => {
    if (providerFirst) firstProvider.current?.focus();
  }, [providerFirst]);

  function submit(e: FormEvent) {
    e.preventDefault();
    login.mutate({ username: username.trim(), password });
  }

  return (
    <main className="login">
      <form className="login-card" onSubmit={submit} aria-labelledby="login-title" aria-busy={busy}>
        <h1 id="login-title" className="login-title">
          <BookOpen size={22} aria-hidden /> Knowspace
        </h1>
        {notice && !error && (
          <p className="notice" role="status">
            {notice}
          </p>
        )}
        {redeeming && (
          <p className="notice" role="status">
            {t("signingIn")}
          </p>
        )}
        {providers.length > 0 && (
          <div className="login-providers">
            {providers.map((p, i) => (
              <a key={p.id} className="btn" href={ssoStartURL(p.id, returnTo)} ref={i === 0 ? firstProvider : undefined}>
                <LogIn size={16} aria-hidden /> {t("continueWith", { name: p.name })}
              </a>
            ))}
          </div>
        )}
        {providers.length > 0 && passwords && <p className="login-or">{t("or")}</p>}
        {passwords && (
          <>
            <label className="field">
              <span>{t("username")}</span>
              <input
                name="username"
                autoComplete="username"
                autoFocus
                required
                value={username}
                onChange={(e) => setUsername(e.target.value)}
              />
            </label>
            <label className="field">
              <span>{t("password")}</span>
              <input
                name="password"
                type="password"
                autoComplete="current-password"
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            </label>
          </>
        )}
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        {passwords && (
          <button className="btn primary" type="submit" disabled={busy}>
            {busy ? t("signingIn") : t("signIn")}
          </button>
        )}
      </form>
    </main>
  );
}
