// Personal API tokens: create (the secret is shown once), list, revoke.

import { useState } from "react";
import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { CopyButton } from "../ui/CopyButton";
import type { APIToken } from "./api";
import { QueryStatus } from "../ui/QueryStatus";
import { TokenCells } from "./TokenCells";
import { useMyTokens, useRevokeToken } from "./tokenQueries";
import { useCreateToken } from "./useCreateToken";
const expiries = [30, 90, 365, 0] as const;

export function TokensSection() {
  const { t } = useTranslation("settings");
  const tokens = useMyTokens();
  const revoke = useRevokeToken();
  const [name, setName] = useState("");
  const [days, setDays] = useState<number>(90);
  const { busy, error, setError, created, forgetSecret, create: createNamed } = useCreateToken();
  const [revoking, setRevoking] = useState<APIToken | null>(null);

  async function create(e: FormEvent) {
    e.preventDefault();
    if (!name.trim()) return setError(t("tokens.nameMissing"));
    if (await createNamed(name.trim(), days)) setName("");
  }

  const expiryLabel = (d: number) => (d === 0 ? t("tokens.never") : t("tokens.days", { count: d }));

  return (
    <section className="page-section" aria-labelledby="tokens-h">
      <h2 id="tokens-h">{t("tokens.heading")}</h2>
      <p className="muted">{t("tokens.intro")}</p>
      <form className="page-form inline" onSubmit={create} noValidate>
        <label className="field">
          <span>{t("tokens.name")}</span>
          <input value={name} autoComplete="off" maxLength={100} onChange={(e) => setName(e.target.value)} />
        </label>
        <label className="field">
          <span>{t("tokens.expiry")}</span>
          <select value={days} onChange={(e) => setDays(Number(e.target.value))}>
            {expiries.map((d) => (
              <option key={d} value={d}>
                {expiryLabel(d)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="btn primary" disabled={busy}>
          {t("tokens.create")}
        </button>
      </form>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {created?.token && (
        <div className="secret-box" role="status" data-testid="new-token">
          <span>{t("tokens.shownOnce", { name: created.name })}</span>
          <code data-testid="token-secret">{created.token}</code>
          <CopyButton key={created.id} text={created.token} label={t("tokens.copy")} copiedLabel={t("tokens.copied")} onFail={() => setError(t("tokens.copyFailed"))} />
          <button type="button" className="btn small ghost" onClick={forgetSecret}>
            {t("tokens.dismiss")}
          </button>
        </div>
      )}
      <QueryStatus query={tokens} empty={t("tokens.none")} />
      {tokens.isSuccess && tokens.data.length > 0 && (
        <table className="page-table" aria-labelledby="tokens-h">
          <thead>
            <tr>
              <th scope="col">{t("tokens.name")}</th>
              <th scope="col">{t("tokens.created")}</th>
              <th scope="col">{t("tokens.lastUsed")}</th>
              <th scope="col">{t("tokens.expires")}</th>
              <th scope="col">{t("tokens.scope")}</th>
              <th scope="col">
                <span className="sr-only">{t("tokens.actions")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.data.map((tk) => (
              <tr key={tk.id} data-token={tk.name}>
                <TokenCells token={tk} />
                <td>
                  <button type="button" className="btn small" aria-label={t("tokens.revokeNamed", { name: tk.name })} onClick={() => setRevoking(tk)}>
                    {t("tokens.revoke")}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {revoking && (
        <ConfirmDialog
          title={t("tokens.revokeTitle")}
          confirmLabel={t("tokens.revoke")}
          onConfirm={async () => {
            await revoke.mutateAsync(revoking.id);
            if (created?.id === revoking.id) forgetSecret();
          }}
          onClose={() => setRevoking(null)}
        >
          {t("tokens.revokeText", { name: revoking.name })}
        </ConfirmDialog>
      )}
    </section>
  );
}
