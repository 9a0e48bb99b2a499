// Model usage and budgets: one's own, and everyone's for admins.

import { request, requestJSON } from "../api/client";
import type { components } from "../api/schema";
import { saveBlob } from "../ui/saveBlob";

type Schemas = components["schemas"];

export type UsageReport = Schemas["UsageReport"];
export type UsageRow = UsageReport["rows"][number];
export type BudgetStatus = Schemas["Budgets"]["budgets"][number];

export function fetchMyUsage(signal?: AbortSignal): Promise<UsageReport> {
  return requestJSON("/usage", { signal });
}

export async function fetchMyBudgets(signal?: AbortSignal): Promise<BudgetStatus[]> {
  return (await requestJSON<Schemas["Budgets"]>("/usage/budgets", { signal })).budgets;
}

/** UsageFilter narrows the admin report to a user or a group's members. */
export interface UsageFilter {
  userId?: number;
  groupId?: number;
}

const filterQuery = (f: UsageFilter) => ({ user_id: f.userId || undefined, group_id: f.groupId || undefined });

export function fetchAdminUsage(f: UsageFilter, signal?: AbortSignal): Promise<UsageReport> {
  return requestJSON("/admin/usage", { signal, query: filterQuery(f) });
}

/** downloadUsageCSV saves the admin report as CSV (fetched with the token a link cannot carry). */
export async function downloadUsageCSV(f: UsageFilter): Promise<void> {
  const res = await request("/admin/usage", { query: { ...filterQuery(f), format: "csv" } });
  const name = /filename="([^"]+)"/.exec(res.headers.get("Content-Disposition") ?? "")?.[1] ?? "usage.csv";
  saveBlob(await res.blob(), name);
}

export async function fetchBudgets(signal?: AbortSignal): Promise<BudgetStatus[]> {
  return (await requestJSON<Schemas["Budgets"]>("/admin/budgets", { signal })).budgets;
}

export interface BudgetInput {
  scope: "global" | "user" | "group";
  user_id?: number;
  group_id?: number;
  period: "day" | "month";
  max_tokens?: number;
  max_cost?: number;
}

export async function putBudget(b: BudgetInput): Promise<BudgetStatus[]> {
  return (await requestJSON<Schemas["Budgets"]>("/admin/budgets", { method: "PUT", json: b })).budgets;
}

export async function deleteBudget(id: number): Promise<void> {
  await request(`/admin/budgets/${id}`, { method: "DELETE" });
}
