// A combobox over GET /auth/directory: type the start of a name, pick a
// person or a group with the arrows and Enter (or the mouse).

import { useTranslation } from "react-i18next";
import { forwardRef, useId, useState } from "react";
import type { KeyboardEvent } from "react";
import { useQuery } from "@tanstack/react-query";
import { UserRound, UsersRound } from "lucide-react";
import { queryKeys } from "../api/queryKeys";
import { searchDirectory } from "../api/sharing";
import { messageOf } from "../ui/errors";
import { candidateLabel, candidates } from "./shareModel";
import type { AccessRow, Candidate } from "./shareModel";
import { useDebounced } from "./useDebounced";

const SEARCH_DELAY_MS = 150;

export const GranteePicker = forwardRef<
  HTMLInputElement,
  {
    rows: readonly AccessRow[];
    picked: Candidate | null;
    onPick: (c: Candidate | null) => void;
    disabled?: boolean;
  }
>(function GranteePicker(props, ref) {
  const { t } = useTranslation("share");
  const { onPick } = props;
  const id = useId();
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const q = useDebounced(text.trim(), SEARCH_DELAY_MS);
  const search = useQuery({
    queryKey: queryKeys.directory(q),
    queryFn: ({ signal }) => searchDirectory(q, signal),
    enabled: open && q !== "",
    staleTime: 30_000,
  });
  const hits = search.data && q !== "" ? candidates(search.data, props.rows) : [];
  const shown = open && text.trim() !== "" && hits.length > 0;
  const cur = Math.min(active, hits.length - 1);
  const optionID = (i: number) => `${id}-opt-${i}`;

  function pick(c: Candidate) {
    setText(c.name);
    setOpen(false);
    onPick(c);
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.nativeEvent.isComposing) return;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      if (!shown) {
        setOpen(true);
        return;
      }
      const d = e.key === "ArrowDown" ? 1 : -1;
      setActive((cur + d + hits.length) % hits.length);
      return;
    }
    if (e.key === "Enter" && shown) {
      const hit = hits[cur];
      if (hit) {
        e.preventDefault();
        pick(hit);
      }
      return;
    }
    // Escape closes the list first; the dialog closes on the next one.
    if (e.key === "Escape" && shown) {
      e.preventDefault();
      e.stopPropagation();
      setOpen(false);
    }
  }

  const noMatch = open && q !== "" && q === text.trim() && search.isSuccess && hits.length === 0 && !props.picked;
  return (
    <div className="grantee-picker">
      <label className="field">
        <span>{t("picker.label")}</span>
        <input
          ref={ref}
          className="text-input"
          role="combobox"
          aria-expanded={shown}
          aria-controls={`${id}-list`}
          aria-autocomplete="list"
          aria-activedescendant={shown ? optionID(cur) : undefined}
          autoComplete="off"
          placeholder={t("picker.placeholder")}
          value={text}
          disabled={props.disabled}
          autoFocus
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
            setActive(0);
            if (props.picked) onPick(null);
          }}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
        />
      </label>
      {/* Always in the DOM so aria-controls names an element; empty and hidden when closed. */}
      <ul id={`${id}-list`} className="grantee-list" role="listbox" aria-label={t("picker.list")} hidden={!shown}>
        {shown &&
          hits.map((c, i) => (
            <li
              key={`${c.kind}:${c.id}`}
              id={optionID(i)}
              role="option"
              aria-selected={i === cur}
              className="grantee-option"
              data-grantee={`${c.kind}:${c.name}`}
              onMouseDown={(e) => {
                // Keep focus in the input (a blur would close the list first).
                e.preventDefault();
                pick(c);
              }}
            >
              {c.kind === "group" ? <UsersRound size={14} aria-hidden /> : <UserRound size={14} aria-hidden />}
              {candidateLabel(c)}
            </li>
          ))}
      </ul>
      {noMatch && (
        <p className="muted small" role="status">
          {t("picker.noMatch", { q })}
        </p>
      )}
      {search.isError && (
        <p className="error small" role="alert">
          {messageOf(search.error)}
        </p>
      )}
    </div>
  );
});
