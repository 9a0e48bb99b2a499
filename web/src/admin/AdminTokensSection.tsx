// Every user's API tokens, with revoke.

import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { APIToken } from "../settings/api";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { TokenCells } from "../settings/TokenCells";
import { QueryStatus } from "../ui/QueryStatus";
import { useAdminTokens, useRevokeAnyToken } from "./adminQueries";

export function AdminTokensSection() {
  const { t } = useTranslation("admin");
  const tokens = useAdminTokens();
  const revoke = useRevokeAnyToken();
  const [revoking, setRevoking] = useState<APIToken | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <section className="page-section" aria-labelledby="atokens-h">
      <h2 id="atokens-h">{t("tokens.heading")}</h2>
      <p className="muted small" role="status">
        {notice}
      </p>
      <QueryStatus query={tokens} empty={t("tokens.none")} />
      {tokens.isSuccess && tokens.data.length > 0 && (
        <table className="page-table" aria-labelledby="atokens-h">
          <thead>
            <tr>
              <th scope="col">{t("tokens.owner")}</th>
              <th scope="col">{t("tokens.name")}</th>
              <th scope="col">{t("tokens.created")}</th>
              <th scope="col">{t("tokens.lastUsed")}</th>
              <th scope="col">{t("tokens.expires")}</th>
              <th scope="col">{t("tokens.scope")}</th>
              <th scope="col">{t("actions")}</th>
            </tr>
          </thead>
          <tbody>
            {tokens.data.map((tk) => (
              <tr key={tk.id} data-token={tk.name}>
                <td>{tk.username}</td>
                <TokenCells token={tk} />
                <td>
                  <button
                    type="button"
                    className="btn small"
                    aria-label={t("tokens.revokeNamed", { name: tk.name, owner: tk.username })}
                    onClick={() => setRevoking(tk)}
                  >
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
            setNotice(t("tokens.revoked", { name: revoking.name, owner: revoking.username }));
          }}
          onClose={() => setRevoking(null)}
        >
          {t("tokens.revokeText", { name: revoking.name, owner: revoking.username })}
        </ConfirmDialog>
      )}
    </section>
  );
}
