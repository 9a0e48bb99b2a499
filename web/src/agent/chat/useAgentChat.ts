// The chat of the current folder: sending, streaming into the conversation,
// Stop, and a new conversation (with the old stream cancelled) when the
// folder changes. With a server that stores conversations (stored), turns
// name their conversation and Retry/Edit use regenerate/edit; otherwise
// history lives in the page, as before. Stored turns are detached: the server
// runs them to their end whatever happens to this page, so a reload, another
// tab or a dropped network follows them again; Stop and a folder switch stop
// them on the server.

import { useCallback, useEffect, useRef, useState } from "react";
import { getConversation, stopAnswer } from "../../api/conversations";
import { storedConversation } from "../../conversations/fromStored";
import { streamTurn } from "../../sse/agentStream";
import type { StreamRequest, TurnOutcome } from "../../sse/agentStream";
import { followTurn } from "../../sse/followTurn";
import {
  appendTurn,
  applyEvent,
  dropTurn,
  finishTurn,
  historyOf,
  isStreaming,
  markReconnecting,
  newConversation,
  newTurn,
} from "./conversation";
import type { Conversation, Turn } from "./conversation";
import { newMessageId } from "./ids";
import { notifyIfHidden } from "./notifyDone";
import { earlierAfterRetry } from "./versions";

/** Active is the turn this page is reading: its stream, and the answer it writes once start names it. */
interface Active {
  ac: AbortController;
  turnId: string;
  /** detached: the server runs it on without this page; Stop must ask the server */
  detached: boolean;
  messageId?: number;
  /** stopWhenNamed: Stop came before start named the answer; it is sent then */
  stopWhenNamed?: boolean;
}

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

/** onChanged is told when the stored list changes: a conversation made, an answer begun or ended. */
export function useAgentChat(scope: string, stored = false, onChanged?: () => void): AgentChat {
  const [conversation, setConversation] = useState<Conversation>(() => newConversation(newMessageId(), scope));
  const [storedId, setStoredId] = useState<number | null>(null);
  const [temporary, setTemporary] = useState(false);
  const latest = useRef(conversation);
  latest.current = conversation;
  const storedRef = useRef(storedId);
  storedRef.current = storedId;
  const onChangedRef = useRef(onChanged);
  onChangedRef.current = onChanged;
  const active = useRef<Active | null>(null);

  // leave stops reading the active turn; stop also ends it on the server.
  const leave = useCallback((stop: boolean) => {
    const a = active.current;
    if (!a) return;
    active.current = null;
    if (stop && a.detached) {
      if (a.messageId === undefined) {
        // The server has the turn but has not named it yet: read on until it does.
        a.stopWhenNamed = true;
        return;
      }
      void stopAnswer(a.messageId).catch(() => {});
    }
    a.ac.abort();
  }, []);

  // finish records how the turn ended; the list drops its "answering…" mark.
  const finish = useCallback((a: Active, outcome: TurnOutcome) => {
    const t = latest.current.turns.find((x) => x.id === a.turnId);
    if (t?.status === "streaming" && outcome.kind === "done") notifyIfHidden(t.question);
    setConversation((c) => finishTurn(c, a.turnId, outcome));
    if (active.current === a) active.current = null;
    if (a.detached) onChangedRef.current?.();
  }, []);

  // follow reads a running answer into the turn until it ends.
  const follow = useCallback(
    (turnId: string, messageId: number) => {
      const a: Active = { ac: new AbortController(), turnId, detached: true, messageId };
      active.current = a;
      void followTurn(messageId, 0, (ev) => setConversation((c) => applyEvent(c, turnId, ev)), a.ac.signal, {
        onReconnecting: (on) => setConversation((c) => markReconnecting(c, turnId, on)),
      }).then((outcome) => finish(a, outcome));
    },
    [finish],
  );

  const reset = useCallback(() => {
    leave(true);
    setStoredId(null);
    setConversation(newConversation(newMessageId(), scope));
  }, [leave, scope]);

  // A different folder is a different conversation: cancel the running stream
  // (the server stops the model and tools) and drop the chat.
  useEffect(() => {
    if (latest.current.scope !== scope) reset();
  }, [scope, reset]);

  // Leaving the page leaves a detached turn running: a reload follows it again.
  useEffect(() => () => leave(false), [leave]);

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
      const body: StreamRequest = { uri: scope, model_id: modelId, message, history, ...extra };
      // The server asks the stored question again itself and refuses a message with regenerate.
      if (body.regenerate !== undefined) body.message = "";
      if (stored && storedRef.current !== null && !temporary) body.conversation_id = storedRef.current;
      if (stored && temporary && storedRef.current === null) body.temporary = true;
      // Only a stored answer can be found again, so only it outlives the page.
      body.detach = stored && !body.temporary;
      const a: Active = { ac: new AbortController(), turnId: ids.id, detached: body.detach };
      active.current = a;
      const turn = newTurn(ids, message, scope, modelId);
      // A regenerated answer keeps the one it replaces as an earlier version, as the server does.
      if (replaced && extra.regenerate !== undefined) turn.earlier = earlierAfterRetry(replaced);
      setConversation((c) => appendTurn(replacing ? dropTurn(c, replacing) : c, turn));
      void streamTurn(
        body,
        (ev) => {
          if (ev.type === "start") {
            a.messageId = ev.data.message_id;
            if (a.stopWhenNamed && a.messageId !== undefined) {
              void stopAnswer(a.messageId).catch(() => {});
              a.ac.abort();
            }
            if (typeof ev.data.conversation_id === "number") {
              if (storedRef.current !== ev.data.conversation_id) {
                storedRef.current = ev.data.conversation_id;
                setStoredId(ev.data.conversation_id);
              }
              // The list marks the conversation answering (and shows a new one).
              onChangedRef.current?.();
            }
          }
          setConversation((c) => applyEvent(c, ids.id, ev));
        },
        a.ac.signal,
        fetch,
        { onReconnecting: (on) => setConversation((c) => markReconnecting(c, ids.id, on)) },
      ).then((outcome) => finish(a, outcome));
    },
    [scope, stored, temporary, finish],
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

  // Opening another conversation leaves this one's answer running; one
  // still being written in the opened conversation is followed.
  const open = useCallback(
    async (id: number) => {
      leave(false);
      const c = await getConversation(id, undefined, true);
      const conv = storedConversation(c.id, c.uri, c.messages ?? []);
      storedRef.current = c.id;
      latest.current = conv;
      setStoredId(c.id);
      setConversation(conv);
      const writing = conv.turns.find((t) => t.status === "streaming");
      if (writing) follow(writing.id, Number(writing.id));
      return conv;
    },
    [leave, follow],
  );

  // Stop ends the answer at once, here and on the server (every tab following it sees it stopped).
  const stop = useCallback(() => {
    const a = active.current;
    if (!a) return;
    leave(true);
    setConversation((c) => finishTurn(c, a.turnId, { kind: "stopped" }));
  }, [leave]);

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
