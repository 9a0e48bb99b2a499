// KnowAgent endpoints other than the stream: options, folder commands,
// compile and jobs (SPEC §4).

import { ApiError, requestJSON } from "./client";
import type { ResourceNode } from "./types";

export interface ModelInfo {
  id: string;
  name: string;
  profile: string;
  context_window: number;
  max_output: number;
  native_tools: boolean;
  reasoning: boolean;
}

export interface CLIProfile {
  name: string;
  models: string[];
  efforts: string[];
}

/** CompileSkill is a skill as /options lists it for the picker (no prompt). */
export interface CompileSkill {
  id: string;
  name: string;
  /** the built-ins' display name ("Concise summary"); a user's skill has its name */
  title?: string;
  description: string;
  builtin: boolean;
}

export interface CompileDefaults {
  executor?: string;
  model_id?: string;
  reasoning_effort?: string;
  call_budget?: number;
  max_call_budget?: number;
  timeout_s?: number;
  max_timeout_s?: number;
  max_files?: number;
  skill?: string;
  skills?: CompileSkill[];
}

export interface AgentOptions {
  models: ModelInfo[];
  cli_profiles: CLIProfile[];
  compile_defaults: CompileDefaults;
  limits?: { max_steps: number; max_tool_calls: number; max_model_calls: number };
  upload?: UploadLimits;
}

/** UploadLimits is what one upload may carry; max_request_bytes 0 means no cap of its own. */
export interface UploadLimits {
  max_file_bytes: number;
  max_request_bytes: number;
  max_files: number;
}

export function fetchAgentOptions(signal?: AbortSignal): Promise<AgentOptions> {
  return requestJSON<AgentOptions>("/knowledge-agent/options", { signal });
}

export interface LsResult {
  uri: string;
  items: ResourceNode[];
  next_offset: number | null;
  note?: string;
}

export interface ReadResult {
  uri: string;
  offset: number;
  limit: number;
  next_offset: number | null;
  prev_offset: number | null;
  total: number;
  body: "l2" | "raw" | "none";
  text: string;
}

export interface SearchHit {
  uri: string;
  offset: number;
  snippet: string;
}

export interface SearchResult {
  uri: string;
  query: string;
  hits: SearchHit[];
  scanned: number;
  matched_files: number;
  /** an opaque cursor, passed back as offset; null when the search is complete */
  next_offset: string | null;
  complete: boolean;
  more_hits_in?: string[];
  skipped_no_text: number;
  note?: string;
}

export interface StatusResult {
  uri: string;
  jobs: { id: number; kind: string; uri: string; state: string; stage: string; error: string; updated_at: string }[];
  note?: string;
}

type CommandBody =
  | { command: "ls"; uri: string; offset?: number; limit?: number }
  | { command: "read"; uri: string; offset?: number; limit?: number }
  | { command: "search"; uri: string; query: string; offset?: string; limit?: number }
  | { command: "status"; uri: string };

function command<T>(body: CommandBody, signal?: AbortSignal): Promise<T> {
  return requestJSON<T>("/knowledge-agent/command", { method: "POST", json: body, signal });
}

export const runLs = (uri: string, offset = 0, limit = 50, signal?: AbortSignal) =>
  command<LsResult>({ command: "ls", uri, offset, limit }, signal);

export const runRead = (uri: string, offset = 0, signal?: AbortSignal) =>
  command<ReadResult>({ command: "read", uri, offset }, signal);

export const runSearch = (uri: string, query: string, cursor?: string, signal?: AbortSignal) =>
  command<SearchResult>(cursor ? { command: "search", uri, query, offset: cursor } : { command: "search", uri, query }, signal);

export const runStatus = (uri: string, signal?: AbortSignal) => command<StatusResult>({ command: "status", uri }, signal);

export interface CompileRequest {
  uris: string[];
  executor: "llm" | "cli";
  model_id?: string;
  cli_profile?: string;
  model?: string;
  reasoning_effort?: string;
  call_budget?: number;
  timeout_s?: number;
  output_parent?: string;
  skill?: string;
}

export interface Job {
  id: number;
  kind: string;
  uri: string;
  state: string;
  stage: string;
  progress: number;
  attempts: number;
  max_attempts?: number;
  error: { code: string; message: string } | null;
  configuration: unknown;
  output_uri?: string;
  /** what a finished job wrote (summary_uri, overview_uri, abstract_uri, …) */
  result?: unknown;
  created_at: string;
  updated_at: string;
}

export interface CompileResponse {
  jobs: Job[];
  rejected: { uri: string; code: string; message: string }[];
}

export function compileFiles(req: CompileRequest): Promise<CompileResponse> {
  return requestJSON<CompileResponse>("/knowledge-agent/compile", { method: "POST", json: req });
}

/** The body of PUT /resources/auto-compile: a compile request for a whole folder. */
export interface AutoCompileRequest extends Omit<CompileRequest, "uris"> {
  uri: string;
  /** seconds without a change before the folder's compile is queued (default 30) */
  quiet_s?: number;
}

/** A folder kept compiled: the saved choices, and whether changes wait for their compile. */
export interface AutoCompile {
  uri: string;
  quiet_s: number;
  executor: string;
  model_id: string;
  cli_profile: string;
  model: string;
  reasoning_effort: string;
  call_budget: number;
  timeout_s: number;
  output_parent: string;
  skill: string;
  pending: boolean;
  changed_at: string | null;
  due_at: string | null;
  last_error?: string;
  created_at: string;
  updated_at: string;
}

/** getAutoCompile answers the folder's setting, or null when it is not kept compiled. */
export async function getAutoCompile(uri: string, signal?: AbortSignal): Promise<AutoCompile | null> {
  try {
    return await requestJSON<AutoCompile>("/resources/auto-compile", { query: { uri }, signal });
  } catch (err) {
    if (err instanceof ApiError && err.code === "auto_compile_not_found") return null;
    throw err;
  }
}

export function saveAutoCompile(req: AutoCompileRequest): Promise<AutoCompile> {
  return requestJSON<AutoCompile>("/resources/auto-compile", { method: "PUT", json: req });
}

export async function deleteAutoCompile(uri: string): Promise<void> {
  await requestJSON<void>("/resources/auto-compile", { method: "DELETE", query: { uri } });
}

export function listJobs(query: { state?: string; uri?: string } = {}, signal?: AbortSignal): Promise<{ jobs: Job[] }> {
  return requestJSON<{ jobs: Job[] }>("/jobs", { query, signal });
}

export function cancelJob(id: number): Promise<Job> {
  return requestJSON<Job>(`/jobs/${id}/cancel`, { method: "POST" });
}

export function retryJob(id: number): Promise<Job> {
  return requestJSON<Job>(`/jobs/${id}/retry`, { method: "POST" });
}
