// Accounts: create, disable or enable, reset a password, change the role.

import { useState } from "react";
import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { AdminUser, Role, User } from "../api/types";
import { Dialog } from "../ui/Dialog";
import { messageOf } from "../ui/errors";
import { formatDate } from "../ui/format";
import { Outcome, QueryStatus } from "../ui/QueryStatus";
import { useAction } from "../ui/useAction";
import { useAdminUsers, useCreateUser, useUpdateUser } from "./adminQueries";

function PasswordDialog(props: { user: AdminUser; onDone: (msg: string) => void; onClose: () => void }) {
  const { t } = useTranslation("admin");
  const [pw, setPw] = useState("");
  const [missing, setMissing] = useState(false);
  const reset = useUpdateUser();
  const error = missing ? t("users.passwordMissing") : reset.isError ? messageOf(reset.error) : null;
  function submit(e: FormEvent) {
    e.preventDefault();
    setMissing(!pw);
    if (!pw) return;
    reset.mutate(
      { id: props.user.id, password: pw },
      {
        onSuccess: () => {
          props.onDone(t("users.passwordReset", { name: props.user.username }));
          props.onClose();
        },
      },
    );
  }
  return (
    <Dialog title={t("users.resetTitle", { name: props.user.username })} onClose={props.onClose}>
      <form className="dialog-form" onSubmit={submit} noValidate>
        <label className="field">
          <span>{t("users.newPassword")}</span>
          <input type="password" autoComplete="new-password" autoFocus value={pw} onChange={(e) => setPw(e.target.value)} />
        </label>
        <p className="muted small">{t("users.resetNote")}</p>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={props.onClose}>
            {t("cancel")}
          </button>
          <button type="submit" className="btn primary" disabled={reset.isPending}>
            {t("users.reset")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

export function UsersSection({ self }: { self: User }) {
  const { t } = useTranslation("admin");
  const users = useAdminUsers({ fresh: true });
  const createUser = useCreateUser();
  const updateUser = useUpdateUser();
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [role, setRole] = useState<Role>("user");
  const [resetting, setResetting] = useState<AdminUser | null>(null);

  const { busy, error, notice, run, refuse, tell } = useAction();

  async function create(e: FormEvent) {
    e.preventDefault();
    if (!name.trim() || !password) {
      return refuse(t("users.missing"));
    }
    const username = name.trim();
    if (await run(() => createUser.mutateAsync({ username, password, role }), t("users.created", { name: username }))) {
      setName("");
      setPassword("");
      setRole("user");
    }
  }

  return (
    <section className="page-section" aria-labelledby="users-h">
      <h2 id="users-h">{t("users.heading")}</h2>
      <h3>{t("users.createHeading")}</h3>
      <form className="page-form inline" onSubmit={create} noValidate>
        <label className="field">
          <span>{t("users.username")}</span>
          <input value={name} autoComplete="off" onChange={(e) => setName(e.target.value)} />
        </label>
        <label className="field">
          <span>{t("users.password")}</span>
          <input type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        <label className="field">
          <span>{t("users.role")}</span>
          <select value={role} onChange={(e) => setRole(e.target.value)}>
            <option value="user">{t("roles.user")}</option>
            <option value="admin">{t("roles.admin")}</option>
          </select>
        </label>
        <button type="submit" className="btn primary" disabled={busy}>
          {t("users.create")}
        </button>
      </form>
      <Outcome error={error} notice={notice} />
      <QueryStatus query={users} />
      {users.isSuccess && (
        <table className="page-table" aria-labelledby="users-h">
          <thead>
            <tr>
              <th scope="col">{t("users.username")}</th>
              <th scope="col">{t("users.role")}</th>
              <th scope="col">{t("users.status")}</th>
              <th scope="col">{t("users.createdAt")}</th>
              <th scope="col">{t("actions")}</th>
            </tr>
          </thead>
          <tbody>
            {[...users.data]
              .sort((a, b) => a.username.localeCompare(b.username))
              .map((u) => {
                const me = String(u.id) === String(self.id);
                return (
                  <tr key={u.id} data-user={u.username}>
                    <td>{u.username}</td>
                    <td>
                      <select
                        aria-label={t("users.roleOf", { name: u.username })}
                        value={u.role}
                        disabled={busy || me}
                        onChange={(e) => {
                          const next = e.target.value;
                          void run(() => updateUser.mutateAsync({ id: u.id, role: next }), t("users.roleChanged", { name: u.username, role: t(`roles.${next === "admin" ? "admin" : "user"}`) }));
                        }}
                      >
                        <option value="user">{t("roles.user")}</option>
                        <option value="admin">{t("roles.admin")}</option>
                      </select>
                    </td>
                    <td>{u.disabled ? t("users.disabled") : t("users.active")}</td>
                    <td>{formatDate(u.created_at)}</td>
                    <td>
                      <div className="actions">
                        <button
                          type="button"
                          className="btn small"
                          disabled={busy || me}
                          aria-label={t(u.disabled ? "users.enableNamed" : "users.disableNamed", { name: u.username })}
                          onClick={() =>
                            run(
                              () => updateUser.mutateAsync({ id: u.id, disabled: !u.disabled }),
                              t(u.disabled ? "users.enabledNotice" : "users.disabledNotice", { name: u.username }),
                            )
                          }
                        >
                          {u.disabled ? t("users.enable") : t("users.disable")}
                        </button>
                        <button
                          type="button"
                          className="btn small"
                          disabled={busy}
                          aria-label={t("users.resetNamed", { name: u.username })}
                          onClick={() => setResetting(u)}
                        >
                          {t("users.reset")}
                        </button>
                      </div>
                    </td>
                  </tr>
                );
              })}
          </tbody>
        </table>
      )}
      {resetting && (
        <PasswordDialog
          user={resetting}
          onDone={tell}
          onClose={() => setResetting(null)}
        />
      )}
    </section>
  );
}
