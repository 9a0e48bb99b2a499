import { useTranslation } from "react-i18next";
import { forwardRef, useEffect, useImperativeHandle, useLayoutEffect, useRef, useState } from "react";
import type { KeyboardEvent } from "react";
import { FolderOpen, SendHorizontal, Square } from "lucide-react";
import { loadDraft, saveDraft } from "../../conversations/drafts";
import { menuMatches } from "../commands/slash";
import type { CommandInfo } from "../commands/slash";

export interface ChatInputHandle {
  setText: (text: string) => void;
  focus: () => void;
}

interface Props {
  /** the scope shown as the prefix, e.g. kb://me/notes/ */
  prefix: string;
  prefixTitle: string;
  /** names the conversation whose unsent text this box keeps (conversations/drafts) */
  draftKey: string;
  streaming: boolean;
  disabled?: boolean;
  onSubmit: (text: string) => boolean;
  onStop: () => void;
  onPrefix: () => void;
  onCommand: (c: CommandInfo) => void;
}

const MAX_ROWS_PX = 180;

/**
 * ChatInput is the multi-line question box: Enter sends, Shift+Enter adds a
 * line, Escape stops a streaming answer, "/" opens the command menu, the
 * scope prefix opens the folder dialog.
 */
export const ChatInput = forwardRef<ChatInputHandle, Props>(function ChatInput(props, ref) {
  const { t } = useTranslation("agent");
  const [text, setText] = useState(() => loadDraft(props.draftKey));
  // The text belongs to one conversation: another one brings back its own draft.
  const [textKey, setTextKey] = useState(props.draftKey);
  if (textKey !== props.draftKey) {
    setTextKey(props.draftKey);
    setText(loadDraft(props.draftKey));
  }
  useEffect(() => {
    if (textKey === props.draftKey) saveDraft(textKey, text);
  }, [text, textKey, props.draftKey]);
  const [menuIndex, setMenuIndex] = useState(0);
  const [menuClosed, setMenuClosed] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);

  useImperativeHandle(ref, () => ({
    setText: (s) => {
      setText(s);
      area.current?.focus();
    },
    focus: () => area.current?.focus(),
  }));

  // Grow with the text up to a limit, then scroll inside.
  useLayoutEffect(() => {
    const el = area.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight, MAX_ROWS_PX)}px`;
  }, [text]);

  const matches = menuClosed ? null : menuMatches(text);
  const menuOpen = !!matches && matches.length > 0;

  function submit() {
    if (props.disabled) return;
    if (props.onSubmit(text)) setText("");
  }

  function pick(c: CommandInfo) {
    setText("");
    props.onCommand(c);
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.nativeEvent.isComposing) return;
    if (menuOpen && matches) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        const d = e.key === "ArrowDown" ? 1 : -1;
        setMenuIndex((i) => (i + d + matches.length) % matches.length);
        return;
      }
      if (e.key === "Escape") {
        e.preventDefault();
        setMenuClosed(true);
        return;
      }
      if ((e.key === "Enter" && !e.shiftKey) || e.key === "Tab") {
        const exact = matches.find((m) => `/${m.slash}` === text.trim().toLowerCase());
        const c = exact ?? matches[Math.min(menuIndex, matches.length - 1)];
        if (c) {
          e.preventDefault();
          pick(c);
          return;
        }
      }
    }
    if (e.key === "Escape" && props.streaming) {
      e.preventDefault();
      stop();
      return;
    }
    if (e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      if (!props.streaming) submit();
    }
  }

  // The Stop button goes away with the stream: the keyboard stays in the
  // box, where the next question is typed, rather than falling to the page.
  function stop() {
    props.onStop();
    area.current?.focus();
  }

  return (
    <div className="chat-input">
      {menuOpen && matches && (
        <ul className="command-menu" role="listbox" aria-label={t("commands.menu")}>
          {matches.map((c, i) => (
            <li
              key={c.name}
              role="option"
              aria-selected={i === menuIndex}
              className="command-item"
              onMouseDown={(e) => {
                e.preventDefault();
                pick(c);
              }}
            >
              <code>{c.label}</code> <span className="muted small">{t(c.hint)}</span>
            </li>
          ))}
        </ul>
      )}
      <div className="input-box">
        <button type="button" className="scope-prefix" title={t("input.prefixTitle", { scope: props.prefixTitle })} onClick={props.onPrefix}>
          <FolderOpen size={12} aria-hidden />
          <span className="ellipsis">{props.prefix}</span>
        </button>
        <textarea
          ref={area}
          className="chat-textarea"
          aria-label={t("input.label")}
          placeholder={props.disabled ? t("input.chooseModel") : t("input.placeholder")}
          rows={2}
          value={text}
          disabled={props.disabled}
          onChange={(e) => {
            setText(e.target.value);
            setMenuIndex(0);
            setMenuClosed(false);
          }}
          onKeyDown={onKeyDown}
        />
        <div className="input-actions">
          {props.streaming ? (
            <button type="button" className="btn danger small" onClick={stop} title={t("input.stopKey")}>
              <Square size={12} aria-hidden /> {t("input.stop")}
            </button>
          ) : (
            <button type="button" className="btn primary small" onClick={submit} disabled={props.disabled || !text.trim()}>
              <SendHorizontal size={12} aria-hidden /> {t("input.send")}
            </button>
          )}
        </div>
      </div>
    </div>
  );
});
