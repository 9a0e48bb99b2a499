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

export interface ResourceNode {
  uri: string;
  name: string;
  kind: NodeKind;
  size: number;
  updated_at: string;
  generated: boolean;
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
}

export interface UploadResponse {
  items: ResourceNode[];
}
