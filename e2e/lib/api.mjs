// One authenticated client for the REST API, so a test states the call and
// what it expects instead of building headers and parsing by hand.

import assert from "node:assert/strict";
import { ADMIN_PASSWORD, ADMIN_USER, apiLogin } from "./server.mjs";

/**
 * apiClient returns `api(path, init)` for the server at baseURL, signed in as
 * username (the admin unless told otherwise) on first use; the token is kept.
 * A path starting with "/" is under /api/v1; a full URL is used as it is.
 * Pass `token` to use a token the test already holds (a personal API token).
 *
 * init is fetch's, plus `json` (a body sent as JSON) and `status` (the status
 * wanted, or a list of them; by default any 2xx). api asserts the status with the path,
 * status and body in the message and returns the parsed JSON (null when the
 * body is empty). api.raw sends the same request and returns the Response
 * unchecked, for tests that look at error statuses.
 */
export function apiClient(baseURL, { username = ADMIN_USER, password = ADMIN_PASSWORD, token } = {}) {
  let session = token ? Promise.resolve(token) : null;
  const bearer = () => (session ??= apiLogin(baseURL, username, password));

  async function raw(path, { json, status, ...init } = {}) {
    const headers = { Authorization: `Bearer ${await bearer()}`, ...(init.headers ?? {}) };
    let body = init.body;
    if (json !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(json);
    }
    const url = /^https?:/.test(path) ? path : `${baseURL}/api/v1${path}`;
    return fetch(url, { ...init, headers, body });
  }

  async function api(path, init = {}) {
    const res = await raw(path, init);
    const text = await res.text();
    const method = init.method ?? "GET";
    const want = init.status === undefined ? null : [init.status].flat();
    assert.ok(want ? want.includes(res.status) : res.ok, `${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  }

  api.raw = raw;
  /** token is the bearer token the client signs its calls with. */
  api.token = bearer;
  /** mkdir creates a folder. */
  api.mkdir = (uri) => api("/resources/folders", { method: "POST", json: { uri }, status: [200, 201] });
  /** upload sends text files ({ name: text }) to a folder. */
  api.upload = (folderURI, files, { onConflict } = {}) => {
    const form = new FormData();
    for (const [name, text] of Object.entries(files)) form.append("file", new Blob([text], { type: "text/plain" }), name);
    const conflict = onConflict ? `&on_conflict=${onConflict}` : "";
    return api(`/resources/upload?uri=${encodeURIComponent(folderURI)}${conflict}`, { method: "POST", body: form, status: [200, 201] });
  };
  /** createUser adds an account through the admin API (the client must be an admin's). */
  api.createUser = (name, pass, role = "user") =>
    api("/admin/users", { method: "POST", json: { username: name, password: pass, role }, status: 201 });
  return api;
}
