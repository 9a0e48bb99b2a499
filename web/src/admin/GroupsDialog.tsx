// The admin's Groups screen: every group with its members; create, rename,
// delete, and add or remove members picked from the user list.

import { useRef, useState } from "react";
import type { FormEvent } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { addMember, createGroup, deleteGroup, listGroups, listUsers, removeMember, renameGroup } from "../api/groups";
import type { Group } from "../api/types";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { Dialog } from "../ui/Dialog";
import { DialogFooter } from "../ui/DialogFooter";
import { messageOf } from "../ui/errors";
import { NameDialog } from "../ui/NameDialog";
import { GroupCard } from "./GroupCard";
import { sortGroups, validateGroupName } from "./groupModel";

export const GROUPS_KEY = ["admin-groups"] as const;
const USERS_KEY = ["admin-users"] as const;

type Sub = { kind: "rename"; group: Group } | { kind: "delete"; group: Group } | null;

export function GroupsDialog(props: { onClose: () => void }) {
  const qc = useQueryClient();
  const groups = useQuery({ queryKey: GROUPS_KEY, queryFn: ({ signal }) => listGroups(signal), refetchOnMount: "always" });
  const users = useQuery({ queryKey: USERS_KEY, queryFn: ({ signal }) => listUsers(signal), refetchOnMount: "always" });
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [sub, setSub] = useState<Sub>(null);
  const nameInput = useRef<HTMLInputElement>(null);
  const list = sortGroups(groups.data ?? []);

  // Every change reloads the list: it is small, and the server says who is in what.
  const reload = () => qc.invalidateQueries({ queryKey: GROUPS_KEY });

  async function run(action: () => Promise<unknown>, done: string): Promise<boolean> {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      await action();
      setNotice(done);
      return true;
    } catch (err) {
      setError(messageOf(err));
      return false;
    } finally {
      await reload();
      setBusy(false);
    }
  }

  async function create(e: FormEvent) {
    e.preventDefault();
    const problem = validateGroupName(name);
    if (problem) {
      setError(problem);
      setNotice(null);
      nameInput.current?.focus();
      return;
    }
    if (await run(() => createGroup(name), `Created group ${name}.`)) setName("");
    nameInput.current?.focus();
  }

  return (
    <Dialog title="Groups" onClose={props.onClose} className="wide groups-dialog">
      <form className="group-create" onSubmit={create}>
        <label className="field">
          <span>New group</span>
          <input
            ref={nameInput}
            className="text-input"
            value={name}
            placeholder="e.g. research"
            autoFocus
            autoComplete="off"
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        <button type="submit" className="btn primary" disabled={busy}>
          Create
        </button>
      </form>
      {(groups.isPending || users.isPending) && <p className="muted">Loading…</p>}
      {groups.isError && (
        <p className="error" role="alert">
          {messageOf(groups.error)}
        </p>
      )}
      {users.isError && (
        <p className="error" role="alert">
          Cannot load the users to add: {messageOf(users.error)}
        </p>
      )}
      {groups.isSuccess && list.length === 0 && <p className="muted">No groups yet. A group lets you share a folder with several people at once.</p>}
      {list.length > 0 && (
        <ul className="group-list" aria-label="Groups">
          {list.map((g) => (
            <GroupCard
              key={g.id}
              group={g}
              users={users.data ?? []}
              busy={busy}
              onRename={() => setSub({ kind: "rename", group: g })}
              onDelete={() => setSub({ kind: "delete", group: g })}
              onAdd={async (userID) => {
                const who = users.data?.find((u) => u.id === userID)?.username ?? "The user";
                await run(() => addMember(g.id, userID), `${who} is now in ${g.name}.`);
              }}
              onRemove={async (userID, username) => {
                await run(() => removeMember(g.id, userID), `${username} is no longer in ${g.name}.`);
              }}
            />
          ))}
        </ul>
      )}
      <DialogFooter error={error} notice={notice} closeLabel="Close" onClose={props.onClose} />
      {sub?.kind === "rename" && (
        <NameDialog
          title={`Rename group ${sub.group.name}`}
          label="New name"
          initial={sub.group.name}
          submitLabel="Rename"
          validate={validateGroupName}
          onSubmit={async (next) => {
            if (next === sub.group.name) return;
            await renameGroup(sub.group.id, next);
            setError(null);
            setNotice(`Renamed ${sub.group.name} to ${next}.`);
            await reload();
          }}
          onClose={() => setSub(null)}
        />
      )}
      {sub?.kind === "delete" && (
        <ConfirmDialog
          title="Delete group"
          confirmLabel="Delete group"
          onConfirm={async () => {
            await deleteGroup(sub.group.id);
            setError(null);
            setNotice(`Deleted group ${sub.group.name}.`);
            await reload();
            // Its card (and the Delete button that opened this) is gone.
            nameInput.current?.focus();
          }}
          onClose={() => setSub(null)}
        >
          Delete the group <strong>{sub.group.name}</strong>? Everything shared with it stops being shared with its members.
        </ConfirmDialog>
      )}
    </Dialog>
  );
}
