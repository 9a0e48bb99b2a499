// The KnowAgent panel: model picker, conversation, context meter, input.

import { useTranslation } from "react-i18next";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { Bot, History, ListChecks, LoaderCircle, MessageSquarePlus } from "lucide-react";
import { useAgentOptions } from "../api/agentOptions";
import type { ModelInfo } from "../api/agent";
import { relativePath } from "../api/uri";
import { placeName } from "../ui/placeName";
import { messageOf } from "../ui/errors";
import type { Citation } from "../citations/citation";
import { CitationContext } from "../citations/CitationContext";
import type { Citations } from "../citations/CitationContext";
import { ConversationList } from "../conversations/ConversationList";
import { draftKey } from "../conversations/drafts";
import { plainTitle } from "../conversations/plainTitle";
import { lineOffset } from "../citations/lineOffset";
import { ChatInput } from "./chat/ChatInput";
import type { ChatInputHandle } from "./chat/ChatInput";
import { parseInput } from "./commands/slash";
import type { CommandInfo, CommandName } from "./commands/slash";
import { CompileDialog } from "./compile/CompileDialog";
import { ContextMeter } from "./chat/ContextMeter";
import { lastContext } from "./chat/conversation";
import type { Turn } from "./chat/conversation";
import { FolderCommandDialog } from "./commands/FolderCommandDialog";
import { ModelPicker } from "./chat/ModelPicker";
import { TaskCenter } from "./tasks/TaskCenter";
import { TurnView } from "./chat/TurnView";
import type { OpenPreview } from "./types";
import type { AgentChat } from "./chat/useAgentChat";
import { Welcome } from "./chat/Welcome";
import { NoModels } from "./NoModels";
import { BudgetNotice } from "../usage/BudgetNotice";

const MODEL_KEY = "knowspace.agent.model";

function savedModel(): string | null {
  try {
    return localStorage.getItem(MODEL_KEY);
  } catch {
    return null;
  }
}

function pickModel(models: ModelInfo[], wanted: string | null): string {
  if (wanted && models.some((m) => m.id === wanted)) return wanted;
  return models[0]?.id ?? "";
}

type DialogState = { kind: "folder" } | { kind: "compile" } | { kind: "tasks" } | null;

interface Props {
  /** the folder the conversation is about */
  scope: string;
  root: string;
  /** the conversation of scope; the workspace owns it so it survives a layout switch (useAgentChat) */
  chat: AgentChat;
  /** the server stores conversations: the list, Temporary chat and ?c= apply */
  stored?: boolean;
  onOpenConversation?: (id: number) => Promise<void>;
  onOpenPreview: OpenPreview;
}

export function AgentPanel({ scope, root, chat, stored = false, onOpenConversation, onOpenPreview }: Props) {
  const { t } = useTranslation("agent");
  const [showList, setShowList] = useState(false);
  const listButton = useRef<HTMLButtonElement>(null);
  // The list takes the whole panel while open; closing it puts focus back
  // where the user was: on its button, or in the question box after opening one.
  const closeList = useCallback((toButton: boolean) => {
    setShowList(false);
    if (toButton) requestAnimationFrame(() => listButton.current?.focus());
  }, []);
  // A new conversation is asked in the chat: the list gives way to it.
  const startNew = () => {
    setShowList(false);
    chat.reset();
  };
  const options = useAgentOptions();
  const models = useMemo(() => options.data?.models ?? [], [options.data]);
  const [chosen, setChosen] = useState<string | null>(savedModel);
  const modelId = pickModel(models, chosen);
  const model = models.find((m) => m.id === modelId);
  const [dialog, setDialog] = useState<DialogState>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // The turn an edited question replaces, while its text is in the input.
  const [editing, setEditing] = useState<string | null>(null);
  const input = useRef<ChatInputHandle>(null);

  const display = useCallback((uri: string) => placeName(uri, root, t("tree:home")), [root, t]);
  const label = relativePath(scope, root);
  // A cited line is found in the file's pages first; the preview opens at an offset.
  const citations = useMemo<Citations>(
    () => ({
      root,
      scope: chat.conversation.scope,
      open: (c: Citation) => {
        if (!c.line || c.line <= 1) return onOpenPreview(c.uri, 0);
        void lineOffset(c.uri, c.line).then((off) => onOpenPreview(c.uri, off));
      },
    }),
    [root, chat.conversation.scope, onOpenPreview],
  );

  const chooseModel = (id: string) => {
    setChosen(id);
    try {
      localStorage.setItem(MODEL_KEY, id);
    } catch {
      // Private mode: the choice lasts for this page only.
    }
  };

  const runCommand = useCallback(
    (name: CommandName) => {
      setNotice(null);
      if (name === "ls") setDialog({ kind: "folder" });
      else if (name === "compile") setDialog({ kind: "compile" });
      else if (name === "status") setDialog({ kind: "tasks" });
      else if (name === "new") chat.reset();
    },
    [chat],
  );

  const onSubmit = (text: string): boolean => {
    const parsed = parseInput(text);
    switch (parsed.kind) {
      case "empty":
        return false;
      case "command":
        runCommand(parsed.command);
        return true;
      case "unknown_command":
        setNotice(t("unknownCommand", { command: parsed.text }));
        return false;
      case "message":
        if (!modelId || chat.streaming) return false;
        setNotice(null);
        chat.send(parsed.text, modelId, editing && chat.conversation.turns.some((t) => t.id === editing) ? editing : undefined);
        setEditing(null);
        return true;
    }
  };

  // Keep the newest text in view while it streams, unless the reader scrolled up.
  const scroller = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  }, [chat.conversation]);
  useEffect(() => {
    stick.current = true;
  }, [chat.conversation.id]);

  const retry = useCallback(
    (t: Turn) => {
      setEditing(null);
      chat.retry(t.id, modelId);
    },
    [chat, modelId],
  );
  const edit = useCallback((t: Turn) => {
    setEditing(t.id);
    input.current?.setText(t.question);
  }, []);
  // An edit made while another folder's chat opened is void.
  useEffect(() => setEditing(null), [chat.conversation.id]);

  const ctx = lastContext(chat.conversation);
  const turns = chat.conversation.turns;
  const lastId = turns[turns.length - 1]?.id;
  const noModels = options.isSuccess && models.length === 0;

  return (
    <CitationContext.Provider value={citations}>
      <div className="agent">
        <div className="panel-header agent-header">
          <h2 className="panel-title">
            <Bot size={16} aria-hidden /> {t("title")}
          </h2>
          <div className="panel-actions">
            <button type="button" className="icon-btn" title={t("tasks.title")} aria-label={t("taskCenter")} onClick={() => setDialog({ kind: "tasks" })}>
              <ListChecks size={15} aria-hidden />
            </button>
            {stored && (
            <button
              ref={listButton}
              type="button"
              className="icon-btn"
              title={t("conversations")}
              aria-label={t("conversations")}
              aria-expanded={showList}
              aria-controls="conversation-list"
              onClick={() => setShowList((v) => !v)}
            >
              <History size={15} aria-hidden />
            </button>
          )}
          <button type="button" className="icon-btn" title={t("newConversation")} aria-label={t("newConversation")} onClick={startNew}>
              <MessageSquarePlus size={15} aria-hidden />
            </button>
          </div>
        </div>
        {stored && showList && (
          <div id="conversation-list" className="conversation-pane">
            <ConversationList
              scope={scope}
              root={root}
              openId={chat.storedId}
              onOpen={(c) => {
                setNotice(null);
                closeList(false);
                void onOpenConversation?.(c.id)
                  .then(() => input.current?.focus())
                  .catch((err: unknown) => setNotice(t("cannotOpenConversation", { title: plainTitle(c.title), error: messageOf(err) })));
              }}
              onDeleted={() => chat.reset()}
              onClose={() => closeList(true)}
            />
          </div>
        )}
        <div className="agent-body" hidden={stored && showList}>
          {models.length > 0 && (
            <div className="agent-toolbar">
              <ModelPicker models={models} value={modelId} onChange={chooseModel} disabled={chat.streaming} />
              {stored && (
                <label className="small temporary-toggle" title={t("temporaryHint")}>
                  <input
                    type="checkbox"
                    checked={chat.temporary}
                    disabled={chat.streaming || chat.conversation.turns.length > 0}
                    onChange={(e) => chat.setTemporary(e.target.checked)}
                  />{" "}
                  {t("temporary")}
                </label>
              )}
            </div>
          )}
          <div
            className="chat-scroll"
            ref={scroller}
            onScroll={(e) => {
              const el = e.currentTarget;
              stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
            }}
            data-conversation={chat.conversation.id}
          >
            {options.isPending ? (
              <p className="muted small pad">
                <LoaderCircle size={12} className="spin" aria-hidden /> {t("loadingModels")}
              </p>
            ) : options.isError ? (
              <p className="error pad" role="alert">
                {t("cannotLoadModels", { error: messageOf(options.error) })}
              </p>
            ) : noModels ? (
              <NoModels onFolder={() => setDialog({ kind: "folder" })} />
            ) : chat.conversation.turns.length === 0 ? (
              <Welcome
                scopeURI={display(scope)}
                label={label}
                textOnly={model ? !model.native_tools : false}
                onPick={(q) => input.current?.setText(q)}
              />
            ) : (
              <div className="messages" role="log" aria-label={t("conversation")} aria-live="polite">
                {turns.map((t) => (
                  <TurnView
                    key={t.id}
                    turn={t}
                    display={display}
                    onOpenPreview={onOpenPreview}
                    onRetry={t.id === lastId && !chat.streaming && modelId ? retry : undefined}
                    onEdit={t.id === lastId && !chat.streaming && modelId ? edit : undefined}
                  />
                ))}
              </div>
            )}
          </div>
          {ctx && <ContextMeter context={ctx.context} turn={ctx.turn} />}
          {editing && (
            <p className="notice small agent-notice" role="status">
              {t("editing")}{" "}
              <button
                type="button"
                className="link-btn"
                onClick={() => {
                  setEditing(null);
                  input.current?.setText("");
                }}
              >
                {t("cancelEdit")}
              </button>
            </p>
          )}
          {notice && (
            <p className="notice small agent-notice" role="status">
              {notice}
            </p>
          )}
          {!noModels && <BudgetNotice refresh={chat.streaming} />}
          {!noModels && (
            <ChatInput
              ref={input}
              prefix={display(scope)}
              prefixTitle={display(scope)}
              draftKey={draftKey(chat.storedId, chat.conversation.scope)}
              streaming={chat.streaming}
              disabled={!modelId}
              onSubmit={onSubmit}
              onStop={chat.stop}
              onPrefix={() => setDialog({ kind: "folder" })}
              onCommand={(c: CommandInfo) => runCommand(c.name)}
            />
          )}
        </div>
        {dialog?.kind === "folder" && (
          <FolderCommandDialog
            scope={scope}
            display={display}
            onClose={() => setDialog(null)}
            onOpenPreview={(uri, offset) => {
              setDialog(null);
              onOpenPreview(uri, offset);
            }}
          />
        )}
        {dialog?.kind === "compile" && (
          <CompileDialog scope={scope} display={display} options={options.data} onClose={() => setDialog(null)} onTasks={() => setDialog({ kind: "tasks" })} />
        )}
        {dialog?.kind === "tasks" && <TaskCenter display={display} onClose={() => setDialog(null)} />}
      </div>
    </CitationContext.Provider>
  );
}
