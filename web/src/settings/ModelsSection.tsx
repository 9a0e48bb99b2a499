// The models and CLI profiles the server offers, each with a Check button
// that makes one tiny call and shows its latency or its classified error.

import { useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useAgentOptions } from "../api/agentOptions";
import { hasCode } from "../api/errorCodes";
import { messageOf } from "../ui/errors";
import { formatNumber } from "../ui/format";
import { checkCLIProfile, checkModel } from "./api";
import type { CheckResult } from "./api";
import { QueryStatus } from "../ui/QueryStatus";

// The codes a check classifies into, said in the UI's language; others show the server's message.
const knownCodes = new Set(["llm_auth", "llm_connect_error", "llm_model_not_found", "llm_rate_limited", "llm_timeout", "llm_server_error",
  "cli_not_installed", "cli_failed", "cli_timeout"]);

function CheckRow(props: { kind: "model" | "cli"; id: string; label: string; detail: string; run: () => Promise<CheckResult> }) {
  const { t } = useTranslation("settings");
  // A check writes nothing, but it is asked for, one at a time, like a write.
  const check = useMutation({ mutationFn: props.run });
  const r = check.data;
  const tooMany = hasCode(check.error, "too_many_checks");
  const failure = check.isError ? (tooMany ? t("models.tooMany") : messageOf(check.error)) : null;
  return (
    <tr data-check={`${props.kind}:${props.id}`}>
      <td>
        {props.label}
        {props.label !== props.id && <code className="muted small"> {props.id}</code>}
      </td>
      <td className="muted small">{props.detail}</td>
      <td>
        <button type="button" className="btn small" disabled={check.isPending} aria-label={t("models.checkNamed", { name: props.label })} onClick={() => check.mutate()}>
          {check.isPending ? t("models.checking") : t("models.check")}
        </button>
      </td>
      <td aria-live="polite" className="check-cell">
        {r?.ok && <span className="check-result ok">{t("models.ok", { ms: formatNumber(r.latency_ms) })}</span>}
        {r && !r.ok && (
          <span className="check-result bad">
            {t("models.failed", { ms: formatNumber(r.latency_ms) })} <code>{r.error?.code}</code>{" "}
            {r.error && knownCodes.has(r.error.code) ? t(`models.errors.${r.error.code}`) : r.error?.message}
          </span>
        )}
        {failure && <span className="check-result bad">{failure}</span>}
      </td>
    </tr>
  );
}

export function ModelsSection() {
  const { t } = useTranslation("settings");
  const options = useAgentOptions();
  const models = options.data?.models ?? [];
  const profiles = options.data?.cli_profiles ?? [];
  const head = (
    <thead>
      <tr>
        <th scope="col">{t("models.name")}</th>
        <th scope="col">{t("models.details")}</th>
        <th scope="col">
          <span className="sr-only">{t("models.check")}</span>
        </th>
        <th scope="col">{t("models.result")}</th>
      </tr>
    </thead>
  );
  return (
    <section className="page-section" aria-labelledby="models-h">
      <h2 id="models-h">{t("models.heading")}</h2>
      <p className="muted">{t("models.intro")}</p>
      <QueryStatus query={options} />
      {options.isSuccess && (
        <>
          <h3 id="models-list-h">{t("models.modelsHeading")}</h3>
          {models.length === 0 ? (
            <p className="muted">{t("models.noModels")}</p>
          ) : (
            <table className="page-table" aria-labelledby="models-list-h">
              {head}
              <tbody>
                {models.map((m) => (
                  <CheckRow
                    key={m.id}
                    kind="model"
                    id={m.id}
                    label={m.name || m.id}
                    detail={t("models.modelDetail", { profile: m.profile, context: formatNumber(m.context_window) })}
                    run={() => checkModel(m.id)}
                  />
                ))}
              </tbody>
            </table>
          )}
          <h3 id="cli-list-h">{t("models.cliHeading")}</h3>
          {profiles.length === 0 ? (
            <p className="muted">{t("models.noProfiles")}</p>
          ) : (
            <table className="page-table" aria-labelledby="cli-list-h">
              {head}
              <tbody>
                {profiles.map((p) => (
                  <CheckRow
                    key={p.name}
                    kind="cli"
                    id={p.name}
                    label={p.name}
                    detail={p.models.length ? p.models.join(", ") : t("models.cliDetail")}
                    run={() => checkCLIProfile(p.name)}
                  />
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}
