// One group on the Groups screen: its name, members, and the actions on it.

import { useEffect, useRef, useState } from "react";
import { Pencil, Trash, UserPlus, X } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { AdminUser, Group } from "../api/types";
import { memberCandidates } from "./groupModel";

export function GroupCard(props: {
  group: Group;
  users: readonly AdminUser[];
  busy: boolean;
  onRename: () => void;
  onDelete: () => void;
  onAdd: (userID: number) => Promise<void>;
  onRemove: (userID: number, username: string) => Promise<void>;
}) {
  const { t } = useTranslation("admin");
  const { group } = props;
  const choices = memberCandidates(props.users, group);
  const [choice, setChoice] = useState("");
  const picker = useRef<HTMLSelectElement>(null);
  // After a removal the chip and its button are gone: focus lands on the
  // member picker once it is enabled again (it is disabled while busy).
  const [refocus, setRefocus] = useState(false);
  useEffect(() => {
    if (!refocus || props.busy) return;
    setRefocus(false);
    picker.current?.focus();
  }, [refocus, props.busy]);
  const chosen = choices.some((u) => String(u.id) === choice) ? choice : "";

  return (
    <li className="group-card" data-group={group.name}>
      <div className="group-head">
        <h3 className="group-name">
          {group.name}
        </h3>
        <span className="muted small">
          {t("groups.members", { count: group.members.length })}
        </span>
        <button type="button" className="icon-btn" title={t("groups.rename")} aria-label={t("groups.renameTitle", { name: group.name })} disabled={props.busy} onClick={props.onRename}>
          <Pencil size={14} aria-hidden />
        </button>
        <button type="button" className="icon-btn" title={t("groups.delete")} aria-label={t("groups.deleteNamed", { name: group.name })} disabled={props.busy} onClick={props.onDelete}>
          <Trash size={14} aria-hidden />
        </button>
      </div>
      {group.members.length > 0 ? (
        <ul className="member-list" aria-label={t("groups.membersOf", { name: group.name })}>
          {group.members.map((m) => (
            <li key={m.id} className="member" data-member={m.username}>
              {m.username}
              <button
                type="button"
                className="icon-btn"
                title={t("groups.remove", { name: m.username })}
                aria-label={t("groups.removeFrom", { name: m.username, group: group.name })}
                disabled={props.busy}
                onClick={async () => {
                  await props.onRemove(m.id, m.username);
                  setRefocus(true);
                }}
              >
                <X size={12} aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted small">{t("groups.noMembers")}</p>
      )}
      <div className="member-add">
        <select
          ref={picker}
          className="select"
          aria-label={t("groups.addMember", { name: group.name })}
          value={chosen}
          disabled={props.busy || choices.length === 0}
          onChange={(e) => setChoice(e.target.value)}
        >
          <option value="">{choices.length === 0 ? t("groups.everyone") : t("groups.choose")}</option>
          {choices.map((u) => (
            <option key={u.id} value={u.id}>
              {u.username}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="btn small"
          disabled={props.busy || chosen === ""}
          aria-label={t("groups.addTo", { name: group.name })}
          onClick={async () => {
            await props.onAdd(Number(chosen));
            setChoice("");
          }}
        >
          <UserPlus size={13} aria-hidden /> {t("groups.add")}
        </button>
      </div>
    </li>
  );
}
