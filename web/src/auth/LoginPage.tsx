import { useState } from "react";
import type { FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { BookOpen } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useSession } from "./session";
import { messageOf } from "../ui/errors";

export function LoginPage() {
  const { t } = useTranslation("auth");
  const { signIn, notice } = useSession();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  // A session is written on the server; on success the workspace replaces this page.
  const login = useMutation({ mutationFn: (c: { username: string; password: string }) => signIn(c.username, c.password) });
  const error = login.isError ? messageOf(login.error) : null;
  const busy = login.isPending || login.isSuccess;

  function submit(e: FormEvent) {
    e.preventDefault();
    login.mutate({ username: username.trim(), password });
  }

  return (
    <main className="login">
      <form className="login-card" onSubmit={submit} aria-labelledby="login-title">
        <h1 id="login-title" className="login-title">
          <BookOpen size={22} aria-hidden /> Knowspace
        </h1>
        {notice && !error && (
          <p className="notice" role="status">
            {notice}
          </p>
        )}
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
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button className="btn primary" type="submit" disabled={busy}>
          {busy ? t("signingIn") : t("signIn")}
        </button>
      </form>
    </main>
  );
}
