// Shapes of the Knowspace REST API (SPEC §4). Field names are the contract.

export type Role = "admin" | "user" | (string & {});

export interface User {
  id: number | string;
  username: string;
  role: Role;
}

export interface LoginResponse {
  token: string;
  expires_at: string;
  user: User;
}

export type NodeKind = "dir" | "file";

/** JobState is a compile job's lifecycle state. */
export type JobState = "queued" | "running" | "succeeded" | "failed" | "cancelled";

/** JobBadge is a file's latest compile job as a listing reports it. */
export interface JobBadge {
  id: number;
  state: JobState | (string & {});
  /** the pipeline stage while running: "parse", "summarize", "overview" */
  stage?: string;
  error?: string;
}

/** SummaryState says whether a file's summary was made from its current upload. */
export type SummaryState = "fresh" | "stale";

export interface ResourceNode {
  uri: string;
  name: string;
  kind: NodeKind;
  size: number;
  updated_at: string;
  generated: boolean;
  /** the file's latest compile job; absent when it was never compiled */
  job?: JobBadge;
  /** freshness of the file's generated summary; absent when it has none */
  summary?: SummaryState;
  /** where that summary is (kb://users/<name>/wiki/…) */
  summary_uri?: string;
}

export interface Listing {
  uri: string;
  items: ResourceNode[];
  next_offset: number | null;
}

export type BodyKind = "l2" | "raw" | "none";

export interface ContentPage {
  uri: string;
  offset: number;
  limit: number;
  next_offset: number | null;
  total: number;
  body: BodyKind;
  text: string;
  /** encoding of the uploaded bytes when they are text, e.g. "gb18030"; text is always decoded. */
  encoding?: string;
}

export interface UploadResponse {
  items: ResourceNode[];
}

/** FileVersion is one uploaded content of a file (GET /resources/versions). */
export interface FileVersion {
  id: number;
  version: number;
  size: number;
  media_type: string;
  created_at: string;
  by: string;
  current: boolean;
}

/** TrashItem is a deleted file or folder (GET /trash); uri is where it was. */
export interface TrashItem {
  id: number;
  uri: string;
  name: string;
  kind: NodeKind;
  size: number;
  deleted_at: string;
  expires_at: string;
}
