// Event shapes of POST /knowledge-agent/stream (docs/STREAM.md, SPEC §5).

export interface TurnLimits {
  max_steps: number;
  max_tool_calls: number;
  max_model_calls: number;
}

export interface StartEvent {
  turn_id: string;
  model_id: string;
  uri: string;
  mode?: "native_tools" | "text_only" | (string & {});
  limits: TurnLimits;
  /** set by a server that stores conversations, unless the turn is temporary */
  conversation_id?: number;
  user_message_id?: number;
  message_id?: number;
  /** replay: the stored answer told again, whole, numbered from 1 (its events were no longer kept) */
  replay?: boolean;
}

export interface TextEvent {
  text: string;
}

export interface ToolCallEvent {
  id: string;
  name: string;
  arguments: string;
}

export interface ToolResultEvent {
  id: string;
  name: string;
  ok: boolean;
  summary: string;
  result?: unknown;
  error?: string | { code?: string; message?: string };
  bytes: number;
  uri?: string;
  offset?: number | string;
  next_offset?: number | string | null;
}

export interface ContextBreakdown {
  system: number;
  tools: number;
  history: number;
  observations: number;
}

export interface ContextEvent {
  estimate: number;
  estimate_kind?: string;
  input_limit: number;
  window: number;
  output_reserve: number;
  protocol_reserve: number;
  breakdown: ContextBreakdown;
  compactions: number;
  last_compaction?: { before: number; after: number; ratio: number };
}

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cached_tokens?: number;
  reasoning_tokens?: number;
}

export interface DoneEvent {
  finish_reason: string;
  steps: number;
  tool_calls: number;
  model_calls: number;
  estimate: number;
  usage?: Usage;
}

export interface ErrorEvent {
  code: string;
  message: string;
}

/** AgentEvent is one decoded stream event, tagged by its SSE event name. */
export type AgentEvent =
  | { type: "start"; data: StartEvent }
  | { type: "reasoning"; data: TextEvent }
  | { type: "delta"; data: TextEvent }
  | { type: "tool_call"; data: ToolCallEvent }
  | { type: "tool_result"; data: ToolResultEvent }
  | { type: "context"; data: ContextEvent }
  | { type: "done"; data: DoneEvent }
  | { type: "error"; data: ErrorEvent };

export type AgentEventType = AgentEvent["type"];

const KNOWN: ReadonlySet<string> = new Set([
  "start",
  "reasoning",
  "delta",
  "tool_call",
  "tool_result",
  "context",
  "done",
  "error",
]);

/**
 * decodeEvent turns one SSE message into an AgentEvent, or null for an event
 * name this client does not know (a newer server may add some) or data that
 * is not a JSON object.
 */
export function decodeEvent(name: string | undefined, data: string): AgentEvent | null {
  if (!name || !KNOWN.has(name)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return null;
  return { type: name, data: parsed } as AgentEvent;
}
