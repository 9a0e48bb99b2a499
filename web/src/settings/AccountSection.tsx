// Change the password; sign out everywhere.

import { useState } from "react";
import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useSession } from "../auth/session";
import { messageOf } from "../ui/errors";
import { changePassword, logoutAll } from "./api";
import { Outcome } from "../ui/QueryStatus";

export function AccountSection() {
  const { t } = useTranslation("settings");
  const { signOut } = useSession();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [confirm, setConfirm] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setNotice(null);
    if (!current || !next) return setError(t("account.missing"));
    if (next !== confirm) return setError(t("account.mismatch"));
    if (next === current) return setError(t("account.same"));
    setBusy(true);
    setError(null);
    try {
      await changePassword(current, next);
      setCurrent("");
      setNext("");
      setConfirm("");
      setNotice(t("account.changed"));
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  }

  async function everywhere() {
    setBusy(true);
    try {
      await logoutAll();
    } catch {
      // This session ends locally either way.
    }
    signOut();
  }

  return (
    <section className="page-section" aria-labelledby="account-h">
      <h2 id="account-h">{t("account.heading")}</h2>
      <h3>{t("account.passwordHeading")}</h3>
      <form className="page-form" onSubmit={submit} noValidate>
        <label className="field">
          <span>{t("account.current")}</span>
          <input type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
        </label>
        <label className="field">
          <span>{t("account.new")}</span>
          <input type="password" autoComplete="new-password" value={next} onChange={(e) => setNext(e.target.value)} />
        </label>
        <label className="field">
          <span>{t("account.confirm")}</span>
          <input type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} />
        </label>
        <Outcome error={error} notice={notice} />
        <div>
          <button type="submit" className="btn primary" disabled={busy}>
            {t("account.change")}
          </button>
        </div>
        <p className="muted small">{t("account.changeNote")}</p>
      </form>
      <h3>{t("account.sessionsHeading")}</h3>
      <p className="muted">{t("account.everywhereNote")}</p>
      <div>
        <button type="button" className="btn" disabled={busy} onClick={everywhere}>
          {t("account.everywhere")}
        </button>
      </div>
    </section>
  );
}
