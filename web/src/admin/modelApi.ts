// The admin's model endpoints: list, add, change, remove, and the check
// from the form. A key goes up and never comes back: the server says only
// whether one is set and its last four characters.

import { request, requestJSON } from "../api/client";
import type { components } from "../api/schema";

type Schemas = components["schemas"];

export type AdminModel = Schemas["AdminModel"];
export type AdminModelInput = Schemas["AdminModelInput"];
export type AdminModelList = Schemas["AdminModelList"];
export type ModelCheck = Schemas["CheckResult"];

const path = (id: string) => `/admin/models/${encodeURIComponent(id)}`;

export function listAdminModels(signal?: AbortSignal): Promise<AdminModelList> {
  return requestJSON("/admin/models", { signal });
}

export function createAdminModel(input: AdminModelInput): Promise<AdminModel> {
  return requestJSON("/admin/models", { method: "POST", json: input });
}

export function updateAdminModel(id: string, change: AdminModelInput): Promise<AdminModel> {
  return requestJSON(path(id), { method: "PATCH", json: change });
}

export async function deleteAdminModel(id: string): Promise<void> {
  await request(path(id), { method: "DELETE" });
}

/** useEmbeddingModel puts an embedding model in use for meaning search on every server; files are embedded again under it. */
export function useEmbeddingModel(id: string): Promise<AdminModelList> {
  return requestJSON("/admin/models/embedding-in-use", { method: "PUT", json: { id } });
}

/** checkAdminModel makes the one-token check with the form's fields; without api_key the stored key of that id is used. */
export function checkAdminModel(input: AdminModelInput): Promise<ModelCheck> {
  return requestJSON("/admin/models/check", { method: "POST", json: input });
}
