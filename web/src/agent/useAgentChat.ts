// The chat of the current folder: sending, streaming into the conversation,
// Stop, and a new conversation (with the old stream cancelled) when the
// folder changes.

import { useCallback, useEffect, useRef, useState } from "react";
import { streamTurn } from "../sse/agentStream";
import {
  appendTurn,
  applyEvent,
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
  send: (message: string, modelId: string) => void;
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
    (message: string, modelId: string) => {
      const conv = latest.current;
      if (active.current || isStreaming(conv) || conv.scope !== scope) return;
      // Ids are made here, outside state updaters, so a re-run updater never
      // assigns new ones.
      const ids = { userId: newMessageId(), id: newMessageId() };
      const history = historyOf(conv);
      const ac = new AbortController();
      active.current = ac;
      setConversation((c) => appendTurn(c, newTurn(ids, message, scope, modelId)));
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

  const stop = useCallback(() => {
    active.current?.abort();
  }, []);

  return { conversation, streaming: isStreaming(conversation), send, stop, reset };
}
