// KnowAgent endpoints other than the stream: options, folder commands,
// compile and jobs (SPEC §4).

import { requestJSON } from "./client";
import { hasCode } from "./errorCodes";
import type { components } from "./schema";
import type { Optional, ResourceNode } from "./types";

type Schemas = components["schemas"];

export type ModelInfo = Schemas["ModelOption"];

export type CLIProfile = Schemas["CLIProfileOption"];

/**
 * CompileSkill is a skill as /options lists it for the picker (no prompt).
 * A skill the user just saved in the dialog is added without a title.
 */
export type CompileSkill = Optional<Schemas["SkillOption"], "title">;

/** CompileDefaults are the compile dialog's starting choices; the dialog reads each one only if present. */
export type CompileDefaults = Partial<Omit<Schemas["Options"]["compile_defaults"], "skills">> & { skills?: CompileSkill[] };

/**
 * AgentOptions is GET /knowledge-agent/options: models, CLI profiles, compile
 * defaults, limits; the app does without limits and upload when absent.
 */
export type AgentOptions = Omit<Schemas["Options"], "compile_defaults" | "limits" | "upload"> & {
  compile_defaults: CompileDefaults;
} & Partial<Pick<Schemas["Options"], "limits" | "upload">>;

/** UploadLimits is what one upload may carry; max_request_bytes 0 means no cap of its own. */
export type UploadLimits = Schemas["Options"]["upload"];

export function fetchAgentOptions(signal?: AbortSignal): Promise<AgentOptions> {
  return requestJSON<AgentOptions>("/knowledge-agent/options", { signal });
}

// The folder commands' answers stay written here for now: the document's
// SearchHit requires line and its results carry fields the app never reads
// (see issue #37).
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
  /** 1-based line of the hit */
  line?: number;
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
  pending_files?: number;
  unranked_files?: number;
  unembedded_files?: number;
  note?: string;
}

export interface StatusResult {
  uri: string;
  jobs: { id: number; kind: string; uri: string; state: string; stage: string; error: string; updated_at: string }[];
  note?: string;
}

type CommandBody = Schemas["Command"];

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

export type CompileRequest = Schemas["CompileRequest"];

export type Job = Schemas["Job"];

export type CompileResponse = Schemas["CompileAnswer"];

export function compileFiles(req: CompileRequest): Promise<CompileResponse> {
  return requestJSON<CompileResponse>("/knowledge-agent/compile", { method: "POST", json: req });
}

/** The body of PUT /resources/auto-compile: a compile request for a whole folder. */
export type AutoCompileRequest = Schemas["AutoCompileRequest"];

/** A folder kept compiled: the saved choices, and whether changes wait for their compile. */
export type AutoCompile = Schemas["AutoCompile"];

/** getAutoCompile answers the folder's setting, or null when it is not kept compiled. */
export async function getAutoCompile(uri: string, signal?: AbortSignal): Promise<AutoCompile | null> {
  try {
    return await requestJSON<AutoCompile>("/resources/auto-compile", { query: { uri }, signal });
  } catch (err) {
    if (hasCode(err, "auto_compile_not_found")) return null;
    throw err;
  }
}

export function saveAutoCompile(req: AutoCompileRequest): Promise<AutoCompile> {
  return requestJSON<AutoCompile>("/resources/auto-compile", { method: "PUT", json: req });
}

export async function deleteAutoCompile(uri: string): Promise<void> {
  await requestJSON<void>("/resources/auto-compile", { method: "DELETE", query: { uri } });
}

/** JobList is the first page of the caller's jobs, newest change first. */
export type JobList = { items: Job[] };

export function listJobs(query: { state?: string; uri?: string } = {}, signal?: AbortSignal): Promise<JobList> {
  return requestJSON<JobList>("/jobs", { query, signal });
}

export function cancelJob(id: number): Promise<Job> {
  return requestJSON<Job>(`/jobs/${id}/cancel`, { method: "POST" });
}

export function retryJob(id: number): Promise<Job> {
  return requestJSON<Job>(`/jobs/${id}/retry`, { method: "POST" });
}
