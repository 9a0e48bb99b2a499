// The model form's state and the request body made from it: a stored key
// is kept unless a new one is typed or its removal asked for, and the access
// lists go up only when the model is restricted.

import type { AdminModel, AdminModelInput } from "./modelApi";

export const PROFILES = ["openai-compatible", "openai", "deepseek", "qwen", "gemini", "ollama"] as const;

export type Kind = "chat" | "embedding";

export type Draft = {
  kind: Kind;
  id: string;
  name: string;
  profile: string;
  base_url: string;
  model: string;
  context_window: string;
  output_reserve: string;
  max_output: string;
  price_input: string;
  price_output: string;
  native_tools: boolean;
  reasoning: boolean;
  api_key: string;
  remove_key: boolean;
  restricted: boolean;
  users: number[];
  groups: number[];
  dimensions: string;
  batch_size: string;
};

export function draftOf(m: AdminModel | null): Draft {
  return {
    kind: m?.kind ?? "chat",
    id: m?.id ?? "",
    name: m?.name ?? "",
    profile: m?.profile ?? "openai-compatible",
    base_url: m?.base_url ?? "",
    model: m?.model ?? "",
    context_window: String(m?.context_window ?? 32768),
    output_reserve: String(m?.output_reserve ?? 4096),
    max_output: m?.max_output ? String(m.max_output) : "",
    price_input: m?.price_input ? String(m.price_input) : "",
    price_output: m?.price_output ? String(m.price_output) : "",
    native_tools: m?.native_tools ?? true,
    reasoning: m?.reasoning ?? false,
    api_key: "",
    remove_key: false,
    restricted: !!m && (m.users.length > 0 || m.groups.length > 0),
    users: m?.users ?? [],
    groups: m?.groups ?? [],
    dimensions: m?.dimensions ? String(m.dimensions) : "",
    batch_size: m?.batch_size ? String(m.batch_size) : "",
  };
}

export function inputOf(d: Draft): AdminModelInput {
  const num = (s: string) => (s.trim() === "" ? 0 : Number(s));
  if (d.kind === "embedding") {
    // An embedding model has no profile, window or access lists.
    const input: AdminModelInput = {
      id: d.id.trim(),
      kind: "embedding",
      name: d.name.trim(),
      base_url: d.base_url.trim(),
      model: d.model.trim(),
      dimensions: num(d.dimensions),
      batch_size: num(d.batch_size),
      price_input: num(d.price_input),
    };
    if (d.api_key) input.api_key = d.api_key;
    else if (d.remove_key) input.api_key = "";
    return input;
  }
  const input: AdminModelInput = {
    id: d.id.trim(),
    name: d.name.trim(),
    profile: d.profile,
    base_url: d.base_url.trim(),
    model: d.model.trim(),
    context_window: num(d.context_window),
    output_reserve: num(d.output_reserve),
    max_output: num(d.max_output),
    price_input: num(d.price_input),
    price_output: num(d.price_output),
    native_tools: d.native_tools,
    reasoning: d.reasoning,
    users: d.restricted ? d.users : [],
    groups: d.restricted ? d.groups : [],
  };
  if (d.api_key) input.api_key = d.api_key;
  else if (d.remove_key) input.api_key = "";
  return input;
}

export function toggle(ids: number[], id: number, on: boolean): number[] {
  return on ? [...ids.filter((x) => x !== id), id] : ids.filter((x) => x !== id);
}
