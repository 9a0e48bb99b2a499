// Server answers that several unit tests start from.

import type { ModelInfo } from "../api/agent";
import type { ContextEvent } from "../sse/events";

/** TWO_MODELS are /options models "fake" and "other", both with native tools. */
export const TWO_MODELS = [
  { id: "fake", name: "Fake", profile: "openai", context_window: 32000, max_output: 1000, native_tools: true, reasoning: false },
  { id: "other", name: "Other", profile: "openai", context_window: 32000, max_output: 1000, native_tools: true, reasoning: false },
] as unknown as ModelInfo[];

/** CONTEXT is a stream's context event: 100 of a 1000-token input limit. */
export const CONTEXT: ContextEvent = {
  estimate: 100,
  input_limit: 1000,
  window: 2048,
  output_reserve: 512,
  protocol_reserve: 1024,
  breakdown: { system: 10, tools: 20, history: 30, observations: 40 },
  compactions: 0,
};
