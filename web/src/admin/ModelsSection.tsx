// Models: the config file's and the environment's (read-only; they win an
// id) and those an admin adds here, usable at once on every replica. Each
// of the admin's can be edited, checked, disabled, restricted or removed.

import { useState } from "react";
import { useTranslation } from "react-i18next";
import { QueryStatus, Outcome } from "../ui/QueryStatus";
import { useAction } from "../ui/useAction";
import { ModelForm } from "./ModelForm";
import type { AdminModel } from "./modelApi";
import { useAdminModels, useChangeModel } from "./modelQueries";

function keyText(m: AdminModel, t: (k: string, o?: Record<string, string>) => string): string {
  if (m.read_only) return "—";
  if (!m.api_key.set) return t("models.keyNone");
  return m.api_key.last4 ? t("models.keySetLast4", { last4: m.api_key.last4 }) : t("models.keySet");
}

export function ModelsSection() {
  const { t } = useTranslation("admin");
  const models = useAdminModels();
  const change = useChangeModel();
  const [editing, setEditing] = useState<AdminModel | null>(null);
  // The form is remounted empty after an add, and with the model on edit.
  const [formKey, setFormKey] = useState(0);
  const { busy, error, notice, run, tell } = useAction();
  const list = models.data;

  function done(msg: string) {
    tell(msg);
    setEditing(null);
    setFormKey((k) => k + 1);
  }

  return (
    <section className="page-section wide" aria-labelledby="models-admin-h">
      <h2 id="models-admin-h">{t("models.heading")}</h2>
      <p className="muted">{t("models.intro")}</p>
      <QueryStatus query={models} />
      {list && (
        <>
          {!list.secrets_key && (
            <p className="notice" role="note" data-testid="no-secrets-key">
              {t("models.noSecretsKey")} <code>secrets_key</code> / <code>KB_SECRETS_KEY</code>
            </p>
          )}
          <table className="page-table" aria-labelledby="models-admin-h">
            <thead>
              <tr>
                <th scope="col">{t("models.id")}</th>
                <th scope="col">{t("models.kind")}</th>
                <th scope="col">{t("models.profile")}</th>
                <th scope="col">{t("models.source")}</th>
                <th scope="col">{t("models.status")}</th>
                <th scope="col">{t("models.apiKey")}</th>
                <th scope="col">{t("models.access")}</th>
                <th scope="col">{t("actions")}</th>
              </tr>
            </thead>
            <tbody>
              {list.models.map((m) => (
                <tr key={`${m.source}:${m.kind}:${m.id}`} data-model={m.id} data-source={m.source} data-kind={m.kind} data-in-use={m.in_use || undefined}>
                  <td>
                    {m.name && m.name !== m.id ? m.name : m.id}
                    {m.name && m.name !== m.id && <code className="muted small"> {m.id}</code>}
                  </td>
                  <td>{m.kind === "embedding" ? t("models.kindEmbedding") : t("models.kindChat")}</td>
                  <td>{m.profile || "—"}</td>
                  <td>{m.read_only ? t("models.fromConfig") : t("models.fromAdmin")}</td>
                  <td>
                    {m.shadowed
                      ? t("models.shadowed")
                      : m.disabled
                        ? t("models.disabled")
                        : m.in_use
                          ? t("models.inUseMeaning")
                          : t("models.enabled")}
                  </td>
                  <td>{keyText(m, t)}</td>
                  <td>{m.users.length + m.groups.length > 0 ? t("models.restricted") : t("models.everyone")}</td>
                  <td>
                    <div className="actions">
                    {m.kind === "embedding" && !m.in_use && !m.disabled && !m.shadowed && (
                      <button
                        type="button"
                        className="btn small"
                        disabled={busy}
                        aria-label={t("models.useForMeaningNamed", { id: m.id })}
                        onClick={() => run(() => change.mutateAsync({ kind: "use-embedding", id: m.id }), t("models.usedForMeaning", { id: m.id }))}
                      >
                        {t("models.useForMeaning")}
                      </button>
                    )}
                    {m.read_only ? (
                      <span className="muted small">{t("models.readOnly")}</span>
                    ) : (
                      <>
                        <button type="button" className="btn small" disabled={busy} aria-label={t("models.editNamed", { id: m.id })} onClick={() => setEditing(m)}>
                          {t("models.edit")}
                        </button>
                        <button
                          type="button"
                          className="btn small"
                          disabled={busy}
                          aria-label={t(m.disabled ? "models.enableNamed" : "models.disableNamed", { id: m.id })}
                          onClick={() =>
                            run(
                              () => change.mutateAsync({ kind: "update", id: m.id, input: { disabled: !m.disabled } }),
                              t(m.disabled ? "models.enabledNotice" : "models.disabledNotice", { id: m.id }),
                            )
                          }
                        >
                          {m.disabled ? t("models.enable") : t("models.disable")}
                        </button>
                        <button
                          type="button"
                          className="btn small danger"
                          disabled={busy}
                          aria-label={t("models.deleteNamed", { id: m.id })}
                          onClick={() => {
                            if (window.confirm(t("models.deleteConfirm", { id: m.id }))) {
                              void run(() => change.mutateAsync({ kind: "delete", id: m.id }), t("models.deleted", { id: m.id }));
                            }
                          }}
                        >
                          {t("models.delete")}
                        </button>
                      </>
                    )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="muted small">{t("models.configWins")}</p>
          <Outcome error={error} notice={notice} />
          <ModelForm
            key={editing ? `edit:${editing.id}` : `new:${formKey}`}
            editing={editing}
            canStoreKeys={list.secrets_key}
            onDone={done}
            onCancel={() => setEditing(null)}
          />
        </>
      )}
    </section>
  );
}
