// The admin's Groups screen: every group with its members; create, rename,
// delete, and add or remove members picked from the user list. It is the
// Admin page's Groups section.

import { useRef, useState } from "react";
import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { Group } from "../api/types";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { messageOf } from "../ui/errors";
import { NameDialog } from "../ui/NameDialog";
import { GroupCard } from "./GroupCard";
import { sortGroups, validateGroupName } from "./groupModel";
import { Outcome } from "../ui/QueryStatus";
import { useAction } from "../ui/useAction";
import { useAdminUsers } from "./adminQueries";
import { useChangeGroup, useGroups } from "./groupQueries";
import type { GroupChange } from "./groupQueries";

type Sub = { kind: "rename"; group: Group } | { kind: "delete"; group: Group } | null;

export function GroupsPanel() {
  const { t } = useTranslation("admin");
  const groups = useGroups();
  const users = useAdminUsers({ fresh: true });
  const change = useChangeGroup();
  const [name, setName] = useState("");
  const [sub, setSub] = useState<Sub>(null);
  const nameInput = useRef<HTMLInputElement>(null);
  const list = sortGroups(groups.data ?? []);

  const { busy, error, notice, run: runAction, refuse, tell } = useAction();
  const run = (c: GroupChange, done: string) => runAction(() => change.mutateAsync(c), done);

  async function create(e: FormEvent) {
    e.preventDefault();
    const problem = validateGroupName(name);
    if (problem) {
      refuse(problem);
      nameInput.current?.focus();
      return;
    }
    if (await run({ kind: "create", name }, t("groups.created", { name }))) setName("");
    nameInput.current?.focus();
  }

  return (
    <>
      <form className="group-create" onSubmit={create}>
        <label className="field">
          <span>{t("groups.newGroup")}</span>
          <input
            ref={nameInput}
            className="text-input"
            value={name}
            placeholder={t("groups.placeholder")}
            autoFocus
            autoComplete="off"
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        <button type="submit" className="btn primary" disabled={busy}>
          {t("groups.create")}
        </button>
      </form>
      {(groups.isPending || users.isPending) && <p className="muted">{t("loading")}</p>}
      {groups.isError && (
        <p className="error" role="alert">
          {messageOf(groups.error)}
        </p>
      )}
      {users.isError && (
        <p className="error" role="alert">
          {t("groups.usersFailed", { message: messageOf(users.error) })}
        </p>
      )}
      {groups.isSuccess && list.length === 0 && <p className="muted">{t("groups.none")}</p>}
      {list.length > 0 && (
        <ul className="group-list" aria-label={t("groups.title")}>
          {list.map((g) => (
            <GroupCard
              key={g.id}
              group={g}
              users={users.data ?? []}
              busy={busy}
              onRename={() => setSub({ kind: "rename", group: g })}
              onDelete={() => setSub({ kind: "delete", group: g })}
              onAdd={async (userID) => {
                const who = users.data?.find((u) => u.id === userID)?.username ?? t("groups.theUser");
                await run({ kind: "add", id: g.id, userID }, t("groups.added", { name: who, group: g.name }));
              }}
              onRemove={async (userID, username) => {
                await run({ kind: "remove", id: g.id, userID }, t("groups.removed", { name: username, group: g.name }));
              }}
            />
          ))}
        </ul>
      )}
      <Outcome error={error} notice={notice} className="share-notice" />
      {sub?.kind === "rename" && (
        <NameDialog
          title={t("groups.renameTitle", { name: sub.group.name })}
          label={t("groups.newName")}
          initial={sub.group.name}
          submitLabel={t("groups.rename")}
          validate={validateGroupName}
          onSubmit={async (next) => {
            if (next === sub.group.name) return;
            await change.mutateAsync({ kind: "rename", id: sub.group.id, name: next });
            tell(t("groups.renamed", { from: sub.group.name, to: next }));
          }}
          onClose={() => setSub(null)}
        />
      )}
      {sub?.kind === "delete" && (
        <ConfirmDialog
          title={t("groups.deleteTitle")}
          confirmLabel={t("groups.deleteTitle")}
          onConfirm={async () => {
            await change.mutateAsync({ kind: "delete", id: sub.group.id });
            tell(t("groups.deleted", { name: sub.group.name }));
            // Its card (and the Delete button that opened this) is gone.
            nameInput.current?.focus();
          }}
          onClose={() => setSub(null)}
        >
          {t("groups.deleteText", { name: sub.group.name })}
        </ConfirmDialog>
      )}
    </>
  );
}
