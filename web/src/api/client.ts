// The one place that talks HTTP to the server: bearer token, JSON, errors.

import { readToken } from "./token";

/** ApiError is a failed API call, carrying the server's code and message. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** the error object's other fields, e.g. `existing` of an upload conflict */
  readonly details: Record<string, unknown>;

  constructor(status: number, code: string, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

type UnauthorizedListener = (err: ApiError) => void;
let unauthorizedListener: UnauthorizedListener | null = null;

/** onUnauthorized registers the handler told about every 401 from an authenticated call. */
export function onUnauthorized(listener: UnauthorizedListener | null): void {
  unauthorizedListener = listener;
}

/** reportUnauthorized tells the registered listener (used by the XHR upload path too). */
export function reportUnauthorized(err: ApiError): void {
  unauthorizedListener?.(err);
}

export const API_BASE = "/api/v1";

export type QueryValue = string | number | boolean | null | undefined;

/** apiURL joins a path under /api/v1 with query parameters, skipping null and undefined. */
export function apiURL(path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === null || value === undefined) continue;
    params.set(key, String(value));
  }
  const qs = params.toString();
  return `${API_BASE}${path}${qs ? `?${qs}` : ""}`;
}

/** authHeaders returns the Authorization header for the stored token, if any. */
export function authHeaders(): Record<string, string> {
  const token = readToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/**
 * errorFromBody turns a failed response's body text into an ApiError, using the
 * server's {"error":{"code","message"}} shape when present.
 */
export function errorFromBody(status: number, statusText: string, bodyText: string): ApiError {
  try {
    const parsed: unknown = JSON.parse(bodyText);
    if (parsed && typeof parsed === "object" && "error" in parsed) {
      const e = (parsed as { error: unknown }).error;
      if (e && typeof e === "object") {
        const { code, message, ...details } = e as Record<string, unknown>;
        if (typeof message === "string" && message !== "") {
          return new ApiError(status, typeof code === "string" ? code : "error", message, details);
        }
      }
    }
  } catch {
    // Not JSON (a proxy error page, say): fall through to a generic message.
  }
  const text = statusText || "request failed";
  return new ApiError(status, "http_" + status, `${text} (HTTP ${status})`);
}

export interface RequestOptions {
  method?: string;
  query?: Record<string, QueryValue>;
  json?: unknown;
  signal?: AbortSignal;
  /** anonymous requests (login) do not send a token and do not trigger the 401 handler. */
  anonymous?: boolean;
}

/** request performs one API call and returns the raw Response when it succeeded. */
export async function request(path: string, opts: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = opts.anonymous ? {} : authHeaders();
  let body: BodyInit | undefined;
  if (opts.json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(opts.json);
  }
  let res: Response;
  try {
    res = await fetch(apiURL(path, opts.query), {
      method: opts.method ?? "GET",
      headers,
      body,
      signal: opts.signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === "AbortError") throw err;
    throw new ApiError(0, "network_error", "Cannot reach the server. Check your connection.");
  }
  if (!res.ok) {
    const err = errorFromBody(res.status, res.statusText, await res.text().catch(() => ""));
    if (res.status === 401 && !opts.anonymous) reportUnauthorized(err);
    throw err;
  }
  return res;
}

/** requestJSON performs one API call and decodes its JSON answer (undefined for 204). */
export async function requestJSON<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const res = await request(path, opts);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}
