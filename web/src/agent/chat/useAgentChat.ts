// The chat of the current folder: sending, streaming into the conversation,
// Stop, and a new conversation (with the old stream cancelled) when the
// folder changes. With a server that stores conversations (stored), turns
// name their conversation and Retry/Edit use regenerate/edit; otherwise
// history lives in the page, as before.

import { useCallback, useEffect, useRef, useState } from "react";
import { getConversation } from "../../api/conversations";
import { storedConversation } from "../../conversations/fromStored";
import { streamTurn } from "../../sse/agentStream";
import type { StreamRequest } from "../../sse/agentStream";
import {
  appendTurn,
  applyEvent,
  dropTurn,
  finishTurn,
  historyOf,
  isStreaming,
  newConversation,
  newTurn,
} from "./conversation";
import type { Conversation, Turn } from "./conversation";
import { newMessageId } from "./ids";
import { earlierAfterRetry } from "./versions";

export interface AgentChat {
  conversation: Conversation;
  streaming: boolean;
  /** the server's id of the open conversation, once it is stored */
  storedId: number | null;
  /** a temporary chat stores nothing (the next new conversation) */
  temporary: boolean;
  setTemporary: (on: boolean) => void;
  /** send asks a question; replacing names a turn the question replaces (an edit of the last message) */
  send: (message: string, modelId: string, replacing?: string) => void;
  /** retry asks a turn's question again */
  retry: (turnId: string, modelId: string) => void;
  stop: () => void;
  reset: () => void;
  /** open shows a stored conversation; its folder becomes the chat's folder */
  open: (id: number) => Promise<Conversation | null>;
}

/** serverId is the stored id behind a turn's message, if the server gave one. */
function serverIds(t: Turn): { user?: number; answer?: number } {
  const num = (s: string) => (/^\d+$/.test(s) ? Number(s) : undefined);
  return { user: t.start?.user_message_id ?? num(t.userId), answer: t.start?.message_id ?? num(t.id) };
}

export function useAgentChat(scope: string, stored = false, onStored?: (id: number) => void): AgentChat {
  const [conversation, setConversation] = useState<Conversation>(() => newConversation(newMessageId(), scope));
  const [storedId, setStoredId] = useState<number | null>(null);
  const [temporary, setTemporary] = useState(false);
  const latest = useRef(conversation);
  latest.current = conversation;
  const storedRef = useRef(storedId);
  storedRef.current = storedId;
  const onStoredRef = useRef(onStored);
  onStoredRef.current = onStored;
  const active = useRef<AbortController | null>(null);

  const abortActive = useCallback(() => {
    active.current?.abort();
    active.current = null;
  }, []);

  const reset = useCallback(() => {
    abortActive();
    setStoredId(null);
    setConversation(newConversation(newMessageId(), scope));
  }, [abortActive, scope]);

  // A different folder is a different conversation: cancel the running stream
  // (the server stops the model and tools) and drop the chat.
  useEffect(() => {
    if (latest.current.scope !== scope) reset();
  }, [scope, reset]);

  useEffect(() => abortActive, [abortActive]);

  const run = useCallback(
    (message: string, modelId: string, replacing: string | undefined, extra: Partial<StreamRequest>) => {
      let conv = latest.current;
      if (active.current || isStreaming(conv) || conv.scope !== scope) return;
      const replaced = replacing ? conv.turns.find((t) => t.id === replacing) : undefined;
      if (replacing) conv = dropTurn(conv, replacing);
      // Ids are made here, outside state updaters, so a re-run updater never
      // assigns new ones.
      const ids = { userId: newMessageId(), id: newMessageId() };
      const history = historyOf(conv);
      const ac = new AbortController();
      active.current = ac;
      const body: StreamRequest = { uri: scope, model_id: modelId, message, history, ...extra };
      // The server asks the stored question again itself and refuses a message with regenerate.
      if (body.regenerate !== undefined) body.message = "";
      if (stored && storedRef.current !== null && !temporary) body.conversation_id = storedRef.current;
      if (stored && temporary && storedRef.current === null) body.temporary = true;
      const turn = newTurn(ids, message, scope, modelId);
      // A regenerated answer keeps the one it replaces as an earlier version, as the server does.
      if (replaced && extra.regenerate !== undefined) turn.earlier = earlierAfterRetry(replaced);
      setConversation((c) => appendTurn(replacing ? dropTurn(c, replacing) : c, turn));
      void streamTurn(
        body,
        (ev) => {
          if (ev.type === "start" && typeof ev.data.conversation_id === "number" && storedRef.current !== ev.data.conversation_id) {
            storedRef.current = ev.data.conversation_id;
            setStoredId(ev.data.conversation_id);
            onStoredRef.current?.(ev.data.conversation_id);
          }
          setConversation((c) => applyEvent(c, ids.id, ev));
        },
        ac.signal,
      ).then((outcome) => {
        setConversation((c) => finishTurn(c, ids.id, outcome));
        if (active.current === ac) active.current = null;
      });
    },
    [scope, stored, temporary],
  );

  const send = useCallback(
    (message: string, modelId: string, replacing?: string) => {
      const t = replacing ? latest.current.turns.find((x) => x.id === replacing) : undefined;
      const edit = stored && storedRef.current !== null && t ? serverIds(t).user : undefined;
      run(message, modelId, replacing, edit !== undefined ? { edit } : {});
    },
    [run, stored],
  );

  // Stored: the server answers the same question again (regenerate) and keeps
  // the old answer as an earlier version, so the turn is replaced here too.
  // Page-only: the question is asked again as a new turn.
  const retry = useCallback(
    (turnId: string, modelId: string) => {
      const t = latest.current.turns.find((x) => x.id === turnId);
      if (!t) return;
      const answer = stored && storedRef.current !== null ? serverIds(t).answer : undefined;
      if (answer !== undefined) run(t.question, modelId || t.modelId, t.id, { regenerate: answer });
      else run(t.question, modelId || t.modelId, undefined, {});
    },
    [run, stored],
  );

  const open = useCallback(
    async (id: number) => {
      abortActive();
      const c = await getConversation(id, undefined, true);
      const conv = storedConversation(c.id, c.uri, c.messages ?? []);
      storedRef.current = c.id;
      latest.current = conv;
      setStoredId(c.id);
      setConversation(conv);
      return conv;
    },
    [abortActive],
  );

  const stop = useCallback(() => {
    active.current?.abort();
  }, []);

  return {
    conversation,
    streaming: isStreaming(conversation),
    storedId,
    temporary,
    setTemporary,
    send,
    retry,
    stop,
    reset,
    open,
  };
}
