// Change the password; sign out everywhere.

import { useState } from "react";
import type { FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
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
  // What is wrong with the form before anything is sent.
  const [problem, setProblem] = useState<string | null>(null);
  const change = useMutation({
    mutationFn: (p: { current: string; next: string }) => changePassword(p.current, p.next),
    onSuccess: () => {
      setCurrent("");
      setNext("");
      setConfirm("");
    },
  });
  // This session ends locally whether the server heard or not.
  const everywhere = useMutation({ mutationFn: logoutAll, onSettled: signOut });
  const busy = change.isPending || everywhere.isPending;
  const error = problem ?? (change.isError ? messageOf(change.error) : null);
  const notice = !problem && change.isSuccess ? t("account.changed") : null;

  function submit(e: FormEvent) {
    e.preventDefault();
    const wrong = !current || !next ? t("account.missing") : next !== confirm ? t("account.mismatch") : next === current ? t("account.same") : null;
    setProblem(wrong);
    if (wrong) change.reset();
    else change.mutate({ current, next });
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
        <button type="button" className="btn" disabled={busy} onClick={() => everywhere.mutate()}>
          {t("account.everywhere")}
        </button>
      </div>
    </section>
  );
}
