// Who can see a folder or file, and granting, changing and ending access.
// Only the owner opens it (the tree offers Share on own nodes only).

import { useTranslation } from "react-i18next";
import { useEffect, useId, useRef, useState } from "react";
import type { FormEvent } from "react";
import { UserRound, UsersRound } from "lucide-react";
import type { ShareRole } from "../api/types";
import { nameOf } from "../api/uri";
import { Dialog } from "../ui/Dialog";
import { DialogFooter } from "../ui/DialogFooter";
import { messageOf } from "../ui/errors";
import { useAction } from "../ui/useAction";
import { GranteePicker } from "./GranteePicker";
import { accessRows, roleLabel, candidateLabel, granteeOfCandidate } from "./shareModel";
import type { AccessRow, Candidate } from "./shareModel";
import { useChangeShare, useShares } from "./shareQueries";
import type { ShareChange } from "./shareQueries";

function RoleSelect(props: { id?: string; value: ShareRole; label?: string; disabled?: boolean; onChange: (r: ShareRole) => void }) {
  return (
    <select
      id={props.id}
      className="select"
      aria-label={props.label}
      value={props.value}
      disabled={props.disabled}
      onChange={(e) => props.onChange(e.target.value as ShareRole)}
    >
      <option value="read">{roleLabel("read")}</option>
      <option value="write">{roleLabel("write")}</option>
    </select>
  );
}

export function ShareDialog(props: {
  uri: string;
  root: string;
  username: string;
  onClose: () => void;
  /** told after every change, so the tree can refresh the node's shared badge */
  onChanged: () => void;
}) {
  const { t } = useTranslation("share");
  const { uri } = props;
  const shares = useShares(uri);
  const change = useChangeShare(uri);
  const rows = accessRows(shares.data ?? [], props.root);
  const [picked, setPicked] = useState<Candidate | null>(null);
  const [role, setRole] = useState<ShareRole>("read");
  const { busy, error, notice, run: runAction, refuse } = useAction();
  // Remounting the picker clears its text after a share is added.
  const [pickerKey, setPickerKey] = useState(0);
  const search = useRef<HTMLInputElement>(null);
  const roleID = useId();
  // After a removal its row and Remove button are gone: focus goes to the
  // search field once it is enabled again (it is disabled while busy).
  const [refocus, setRefocus] = useState(false);
  useEffect(() => {
    if (!refocus || busy) return;
    setRefocus(false);
    search.current?.focus();
  }, [refocus, busy]);

  const run = (c: ShareChange, done: string) =>
    runAction(async () => {
      await change.mutateAsync(c);
      props.onChanged();
    }, done);

  async function add(e: FormEvent) {
    e.preventDefault();
    if (!picked) {
      refuse(t("pickFirst"));
      setRefocus(true);
      return;
    }
    const c = picked;
    // A failed share keeps the pick, so the user can change the role and retry.
    if (!(await run({ kind: "grant", grantee: granteeOfCandidate(c), role }, t(role === "write" ? "nowEdit" : "nowRead", { who: candidateLabel(c) })))) {
      setRefocus(true);
      return;
    }
    setPicked(null);
    setPickerKey((k) => k + 1);
  }

  async function remove(r: AccessRow) {
    await run({ kind: "end", shareID: r.shareID }, t("removed", { who: candidateLabel(r) }));
    setRefocus(true);
  }

  const direct = rows.filter((r) => r.via === null);
  const inherited = rows.filter((r) => r.via !== null);
  return (
    <Dialog title={t("title", { name: nameOf(uri) })} onClose={props.onClose} className="wide share-dialog">
      <form className="share-add" onSubmit={add} aria-label={t("add")}>
        <GranteePicker key={pickerKey} ref={search} rows={rows} picked={picked} onPick={setPicked} disabled={busy} />
        {/* A label beside, not around, the select: around it the name would take in the chosen option ("Role Read"). */}
        <div className="field share-role">
          <label htmlFor={roleID}>{t("roleLabel")}</label>
          <RoleSelect id={roleID} value={role} onChange={setRole} />
        </div>
        <button type="submit" className="btn primary" disabled={busy || !picked}>
          {t("share")}
        </button>
      </form>
      <h3 className="share-heading">{t("whoHasAccess")}</h3>
      {shares.isPending && <p className="muted">{t("common:loading")}</p>}
      {shares.isError && (
        <p className="error" role="alert">
          {messageOf(shares.error)}
        </p>
      )}
      <ul className="access-list" aria-label={t("whoHasAccess")}>
        <li className="access-row" data-owner>
          <UserRound size={15} aria-hidden />
          <span className="access-name">{t("you", { name: props.username })}</span>
          <span className="muted small">{t("owner")}</span>
        </li>
        {direct.map((r) => (
          <li key={r.shareID} className="access-row" data-share={`${r.kind}:${r.name}`}>
            {r.kind === "group" ? <UsersRound size={15} aria-hidden /> : <UserRound size={15} aria-hidden />}
            <span className="access-name">{candidateLabel(r)}</span>
            <RoleSelect
              value={r.role}
              label={t("roleFor", { who: candidateLabel(r) })}
              disabled={busy}
              onChange={(next) => void run({ kind: "role", shareID: r.shareID, role: next }, t(next === "write" ? "nowEdit" : "nowOnlyRead", { who: candidateLabel(r) }))}
            />
            <button type="button" className="btn small" disabled={busy} aria-label={t("removeWho", { who: candidateLabel(r) })} onClick={() => void remove(r)}>
              {t("remove")}
            </button>
          </li>
        ))}
        {inherited.map((r) => (
          <li key={r.shareID} className="access-row inherited" data-share={`${r.kind}:${r.name}`} data-via={r.via ?? undefined}>
            {r.kind === "group" ? <UsersRound size={15} aria-hidden /> : <UserRound size={15} aria-hidden />}
            <span className="access-name">{candidateLabel(r)}</span>
            <span className="muted small" title={t("sharedOn", { uri: r.uri })}>
              {t("via", { role: roleLabel(r.role), via: r.via })}
            </span>
          </li>
        ))}
      </ul>
      {shares.isSuccess && rows.length === 0 && <p className="muted small">{t("onlyYou")}</p>}
      <DialogFooter error={error} notice={notice} closeLabel={t("done")} onClose={props.onClose} />
    </Dialog>
  );
}
