// The form that adds or edits one of the admin's models, with the model
// check run from it (saved or not). A stored key is never shown: only that
// one is set and its last four characters; leaving the field empty keeps it.

import { useState } from "react";
import type { FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { messageOf } from "../ui/errors";
import { formatNumber } from "../ui/format";
import { Outcome } from "../ui/QueryStatus";
import { useAction } from "../ui/useAction";
import { useAdminUsers } from "./adminQueries";
import { useGroups } from "./groupQueries";
import { checkAdminModel } from "./modelApi";
import type { AdminModel } from "./modelApi";
import { draftOf, inputOf, PROFILES, toggle } from "./modelDraft";
import type { Draft, Kind } from "./modelDraft";
import { useChangeModel } from "./modelQueries";

export function ModelForm(props: { editing: AdminModel | null; canStoreKeys: boolean; onDone: (notice: string) => void; onCancel: () => void }) {
  const { t } = useTranslation("admin");
  const [d, setD] = useState<Draft>(() => draftOf(props.editing));
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setD((x) => ({ ...x, [k]: v }));
  const change = useChangeModel();
  const check = useMutation({ mutationFn: checkAdminModel });
  const groups = useGroups();
  const users = useAdminUsers();
  const { busy, error, notice, run, refuse } = useAction();
  const editing = props.editing;
  const key = editing?.api_key;

  async function save(e: FormEvent) {
    e.preventDefault();
    if (!d.id.trim()) return refuse(t("models.idMissing"));
    const input = inputOf(d);
    const ok = editing
      ? await run(() => change.mutateAsync({ kind: "update", id: editing.id, input }), t("models.saved", { id: editing.id }))
      : await run(() => change.mutateAsync({ kind: "create", input }), t("models.added", { id: input.id }));
    if (ok) props.onDone(editing ? t("models.saved", { id: editing.id }) : t("models.added", { id: input.id }));
  }

  const r = check.data;
  const text = (k: "id" | "name" | "base_url" | "model", label: string, extra: { disabled?: boolean; placeholder?: string } = {}) => (
    <label className="field">
      <span>{label}</span>
      <input value={d[k]} autoComplete="off" spellCheck={false} onChange={(e) => set(k, e.target.value)} {...extra} />
    </label>
  );
  const number = (
    k: "context_window" | "output_reserve" | "max_output" | "price_input" | "price_output" | "dimensions" | "batch_size",
    label: string,
    placeholder?: string,
  ) => (
    <label className="field">
      <span>{label}</span>
      <input inputMode="decimal" value={d[k]} autoComplete="off" placeholder={placeholder} onChange={(e) => set(k, e.target.value)} />
    </label>
  );
  const embedding = d.kind === "embedding";
  return (
    <form className="model-form" onSubmit={save} noValidate aria-labelledby="model-form-h" data-testid="model-form">
      <h3 id="model-form-h">{editing ? t("models.editHeading", { id: editing.id }) : t("models.addHeading")}</h3>
      <div className="model-form-grid">
        <label className="field">
          <span>{t("models.kind")}</span>
          <select value={d.kind} disabled={!!editing} onChange={(e) => set("kind", e.target.value as Kind)}>
            <option value="chat">{t("models.kindChat")}</option>
            <option value="embedding">{t("models.kindEmbedding")}</option>
          </select>
        </label>
        {text("id", t("models.id"), { disabled: !!editing })}
        {text("name", t("models.name"))}
        {!embedding && (
        <label className="field">
          <span>{t("models.profile")}</span>
          <select value={d.profile} onChange={(e) => set("profile", e.target.value)}>
            {PROFILES.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
        )}
        {text("base_url", t("models.baseURL"), { placeholder: embedding ? undefined : t("models.baseURLHint") })}
        {text("model", t("models.upstream"), { placeholder: t("models.upstreamHint") })}
        {!embedding && number("context_window", t("models.window"))}
        {!embedding && number("output_reserve", t("models.reserve"))}
        {!embedding && number("max_output", t("models.maxOutput"))}
        {embedding && number("dimensions", t("models.dimensions"), t("models.dimensionsHint"))}
        {embedding && number("batch_size", t("models.batchSize"), t("models.batchSizeHint"))}
        {number("price_input", t("models.priceInput"))}
        {!embedding && number("price_output", t("models.priceOutput"))}
        <label className="field">
          <span>{t("models.apiKey")}</span>
          <input
            type="password"
            autoComplete="new-password"
            value={d.api_key}
            disabled={!props.canStoreKeys}
            placeholder={key?.set ? t("models.keyKept", { last4: key.last4 ?? "" }) : ""}
            onChange={(e) => set("api_key", e.target.value)}
          />
        </label>
      </div>
      {!props.canStoreKeys && <p className="muted small">{t("models.keyNeedsSecretsKey")}</p>}
      <div className="model-form-checks">
        {!embedding && (
          <>
            <label>
              <input type="checkbox" checked={d.native_tools} onChange={(e) => set("native_tools", e.target.checked)} /> {t("models.nativeTools")}
            </label>
            <label>
              <input type="checkbox" checked={d.reasoning} onChange={(e) => set("reasoning", e.target.checked)} /> {t("models.reasoning")}
            </label>
          </>
        )}
        {key?.set && (
          <label>
            <input type="checkbox" checked={d.remove_key} onChange={(e) => set("remove_key", e.target.checked)} /> {t("models.removeKey")}
          </label>
        )}
      </div>
      {!embedding && (
      <fieldset className="choice-group">
        <legend>{t("models.access")}</legend>
        <label>
          <input type="radio" name="model-access" checked={!d.restricted} onChange={() => set("restricted", false)} /> {t("models.everyone")}
        </label>
        <label>
          <input type="radio" name="model-access" checked={d.restricted} onChange={() => set("restricted", true)} /> {t("models.only")}
        </label>
        {d.restricted && (
          <div className="model-access-lists">
            <fieldset className="choice-group">
              <legend>{t("models.groups")}</legend>
              {(groups.data ?? []).map((g) => (
                <label key={g.id}>
                  <input type="checkbox" checked={d.groups.includes(g.id)} onChange={(e) => set("groups", toggle(d.groups, g.id, e.target.checked))} /> {g.name}
                </label>
              ))}
            </fieldset>
            <fieldset className="choice-group">
              <legend>{t("models.users")}</legend>
              {(users.data ?? []).map((u) => (
                <label key={u.id}>
                  <input type="checkbox" checked={d.users.includes(u.id)} onChange={(e) => set("users", toggle(d.users, u.id, e.target.checked))} /> {u.username}
                </label>
              ))}
            </fieldset>
          </div>
        )}
      </fieldset>
      )}
      <div className="dialog-actions">
        <button type="button" className="btn" disabled={check.isPending || !d.id.trim()} onClick={() => check.mutate(inputOf(d))}>
          {check.isPending ? t("models.checking") : t("models.check")}
        </button>
        {editing && (
          <button type="button" className="btn" onClick={props.onCancel}>
            {t("cancel")}
          </button>
        )}
        <button type="submit" className="btn primary" disabled={busy}>
          {editing ? t("models.save") : t("models.add")}
        </button>
      </div>
      <p aria-live="polite" className="check-cell" data-testid="model-check">
        {r?.ok && <span className="check-result ok">{t("models.checkOK", { ms: formatNumber(r.latency_ms) })}</span>}
        {r && !r.ok && (
          <span className="check-result bad">
            {t("models.checkFailed")} <code>{r.error?.code}</code> {r.error?.message}
          </span>
        )}
        {check.isError && <span className="check-result bad">{messageOf(check.error)}</span>}
      </p>
      <Outcome error={error} notice={notice} />
    </form>
  );
}
