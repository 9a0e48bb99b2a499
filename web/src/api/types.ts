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
  /** set with summary_uri: the file changed since it was summarized */
  stale?: boolean;
  /** a compiled folder's L0 digest (the first 300 characters at most) */
  abstract?: string;
  /** where a compiled folder's L1 overview is */
  overview_uri?: string;
  /** the caller owns this node and shared it with someone (the tree's shared badge) */
  shared?: boolean;
  /** a folder kept compiled: its changes queue their compile after a quiet period */
  auto_compile?: boolean;
  /** the file's text body was recognized by OCR and may contain recognition errors */
  ocr?: boolean;
  /** entries of "Shared with me" (kb://shared/): whose node it is */
  owner?: string;
  /** entries of "Shared with me": the caller's role on it */
  role?: ShareRole;
}

/** Access is what the caller may do in a listed folder. */
export type Access = "owner" | "write" | "read";

export interface Listing {
  uri: string;
  items: ResourceNode[];
  /** opaque: pass it back as cursor for the next page; null at the end */
  next_cursor: string | null;
  /** absent from servers before sharing; the caller's own tree is "owner" */
  access?: Access;
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
  /** "ocr" when the text was recognized from a scan or an image and may contain recognition errors. */
  source?: "ocr";
  /** mean word confidence (0–100) of the OCR text */
  ocr_confidence?: number;
  /** pages whose OCR confidence is under the server's floor */
  ocr_low_confidence_pages?: number[];
  /** the PDF pages (from 1) whose text this window shows */
  pages?: number[];
  /** how an L2 body was extracted; ocr.pages lists the pages OCR read */
  extraction?: { ocr?: { pages?: { page: number }[] } };
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
  /** who uploaded it; sharing servers send it (a write grantee may have) */
  author?: string;
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
  /** who deleted it: the owner, or someone the folder was shared with for writing */
  deleted_by?: string;
}

/** ShareRole is what a grantee may do with a shared node. */
export type ShareRole = "read" | "write";

/** UserRef and GroupRef name a grantee. */
export interface UserRef {
  id: number;
  username: string;
}

export interface GroupRef {
  id: number;
  name: string;
}

/** Share is one grant on a node (GET /resources/shares); exactly one of user and group is set. */
export interface Share {
  id: number;
  uri: string;
  user?: UserRef;
  group?: GroupRef;
  role: ShareRole;
  /** the share is on an ancestor of the asked node (uri says which) */
  inherited: boolean;
  created_at: string;
}

/** Directory is who the Share dialog can grant to (GET /auth/directory). */
export interface Directory {
  users: UserRef[];
  groups: GroupRef[];
}

/** Group is a named set of users an admin manages (GET /admin/groups). */
export interface Group {
  id: number;
  name: string;
  members: UserRef[];
  created_at: string;
}

/** AdminUser is an account as the admin user list shows it (GET /admin/users). */
export interface AdminUser {
  id: number;
  username: string;
  role: Role;
  disabled: boolean;
  created_at: string;
}
