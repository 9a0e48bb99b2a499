// Connect an agent: a token that sees one folder (read-only unless asked),
// and the configuration for Claude Code, Cursor, VS Code, Codex and the
// OpenAI SDK to paste, with the token already in it.

import { useState } from "react";
import type { FormEvent } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useAgentOptions } from "../api/agentOptions";
import { queryKeys } from "../api/queryKeys";
import { listResources } from "../api/resources";
import type { User } from "../api/types";
import { displayPath, rootURI } from "../api/uri";
import { CopyButton } from "../ui/CopyButton";
import { folderChoices, startFolder } from "./connectFolders";
import { agentSnippets } from "./snippets";
import { useCreateToken } from "./useCreateToken";

export function ConnectSection({ user }: { user: User }) {
  const { t } = useTranslation("settings");
  const home = rootURI(user.username);
  const listing = useQuery({ queryKey: queryKeys.connectFolders(), queryFn: () => listResources("kb://me/") });
  const [folder, setFolder] = useState(() => startFolder(window.location.search, home));
  const folders = (listing.data?.items ?? []).filter((n) => n.kind === "dir" && !n.generated).map((n) => n.uri);
  const choices = folderChoices(folders, home, folder, t("tree:home"));
  const model = useAgentOptions().data?.models[0]?.id ?? null;
  const [name, setName] = useState("agent");
  const [readOnly, setReadOnly] = useState(true);
  const { busy, error, setError, created, create: createScoped } = useCreateToken();

  const scopeLabel = (uri: string) => (uri === home ? t("tree:home") : displayPath(uri, home));

  async function create(e: FormEvent) {
    e.preventDefault();
    if (!name.trim()) return setError(t("tokens.nameMissing"));
    await createScoped(name.trim(), 90, { uri: folder, readOnly });
  }

  return (
    <section className="page-section" aria-labelledby="connect-h">
      <h2 id="connect-h">{t("connect.heading")}</h2>
      <p className="muted">{t("connect.intro")}</p>
      <form className="page-form" onSubmit={create} noValidate>
        <label className="field">
          <span>{t("connect.folder")}</span>
          <select value={folder} onChange={(e) => setFolder(e.target.value)}>
            {choices.map((c) => (
              <option key={c.uri} value={c.uri}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t("tokens.name")}</span>
          <input value={name} autoComplete="off" maxLength={100} onChange={(e) => setName(e.target.value)} />
        </label>
        <label className="check">
          <input type="checkbox" checked={readOnly} onChange={(e) => setReadOnly(e.target.checked)} />
          <span>{t("connect.readOnly")}</span>
        </label>
        <button type="submit" className="btn primary" disabled={busy}>
          {t("connect.create")}
        </button>
      </form>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {created?.token && (
        <div data-testid="connect-snippets">
          <p className="secret-box" role="status">
            {t("connect.created", { name: created.name, folder: scopeLabel(created.scope_uri ?? folder), days: 90 })}
          </p>
          {agentSnippets(window.location.origin, created.token, model).map((s) => (
            <figure key={s.id} className="snippet" data-snippet={s.id}>
              <figcaption>
                {t(`connect.for.${s.id}`)} <span className="muted">({s.where})</span>
              </figcaption>
              <pre>
                <code>{s.text}</code>
              </pre>
              <CopyButton
                key={created.id}
                text={s.text}
                label={t("tokens.copy")}
                copiedLabel={t("tokens.copied")}
                ariaLabel={t("connect.copyNamed", { name: t(`connect.for.${s.id}`) })}
                onFail={() => setError(t("tokens.copyFailed"))}
              />
            </figure>
          ))}
        </div>
      )}
    </section>
  );
}
