// The chat of the current folder: sending, streaming into the conversation,
// Stop, and a new conversation (with the old stream cancelled) when the
// folder changes.

import { useCallback, useEffect, useRef, useState } from "react";
import { streamTurn } from "../sse/agentStream";
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
import type { Conversation } from "./conversation";
import { newMessageId } from "./ids";

export interface AgentChat {
  conversation: Conversation;
  streaming: boolean;
  /** send asks a question; replacing names a turn the question replaces (an edit of the last message) */
  send: (message: string, modelId: string, replacing?: string) => void;
  /** retry asks a turn's question again as a new turn */
  retry: (turnId: string, modelId: string) => void;
  stop: () => void;
  reset: () => void;
}

export function useAgentChat(scope: string): AgentChat {
  const [conversation, setConversation] = useState<Conversation>(() => newConversation(newMessageId(), scope));
  const latest = useRef(conversation);
  latest.current = conversation;
  const active = useRef<AbortController | null>(null);

  const abortActive = useCallback(() => {
    active.current?.abort();
    active.current = null;
  }, []);

  const reset = useCallback(() => {
    abortActive();
    setConversation(newConversation(newMessageId(), scope));
  }, [abortActive, scope]);

  // A different folder is a different conversation: cancel the running stream
  // (the server stops the model and tools) and drop the chat.
  useEffect(() => {
    if (latest.current.scope !== scope) reset();
  }, [scope, reset]);

  useEffect(() => abortActive, [abortActive]);

  const send = useCallback(
    (message: string, modelId: string, replacing?: string) => {
      let conv = latest.current;
      if (active.current || isStreaming(conv) || conv.scope !== scope) return;
      if (replacing) conv = dropTurn(conv, replacing);
      // Ids are made here, outside state updaters, so a re-run updater never
      // assigns new ones.
      const ids = { userId: newMessageId(), id: newMessageId() };
      const history = historyOf(conv);
      const ac = new AbortController();
      active.current = ac;
      setConversation((c) => appendTurn(replacing ? dropTurn(c, replacing) : c, newTurn(ids, message, scope, modelId)));
      void streamTurn(
        { uri: scope, model_id: modelId, message, history },
        (ev) => setConversation((c) => applyEvent(c, ids.id, ev)),
        ac.signal,
      ).then((outcome) => {
        setConversation((c) => finishTurn(c, ids.id, outcome));
        if (active.current === ac) active.current = null;
      });
    },
    [scope],
  );

  const retry = useCallback(
    (turnId: string, modelId: string) => {
      const t = latest.current.turns.find((x) => x.id === turnId);
      if (t) send(t.question, modelId || t.modelId);
    },
    [send],
  );

  const stop = useCallback(() => {
    active.current?.abort();
  }, []);

  return { conversation, streaming: isStreaming(conversation), send, retry, stop, reset };
}
