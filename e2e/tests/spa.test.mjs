import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { withWorkspace } from "../lib/fixture.mjs";

// The binary serves the embedded app with the caching rules of STYLE.md.
describe("embedded app serving", { timeout: 60_000 }, () => {
  const ws = withWorkspace({ browser: false });
  let server;
  before(() => ({ server } = ws));

  it("serves the shell with no-cache and hashed assets as immutable", async () => {
    const res = await fetch(`${server.baseURL}/`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("cache-control"), "no-cache");
    const html = await res.text();
    assert.match(html, /<div id="root">/, "the built app, not the placeholder page");
    const asset = html.match(/\/assets\/[^"]+\.js/)?.[0];
    assert.ok(asset, "index.html links a hashed script");
    const a = await fetch(`${server.baseURL}${asset}`);
    assert.equal(a.status, 200);
    assert.equal(a.headers.get("cache-control"), "public, max-age=31536000, immutable");
    assert.match(a.headers.get("content-type") ?? "", /javascript/);
  });

  it("falls back to the shell for app routes but not for files or the API", async () => {
    const route = await fetch(`${server.baseURL}/some/client/route`);
    assert.equal(route.status, 200);
    assert.match(await route.text(), /<div id="root">/);

    const missing = await fetch(`${server.baseURL}/assets/missing-0000.js`);
    assert.equal(missing.status, 404);

    const api = await fetch(`${server.baseURL}/api/v1/no-such-endpoint`);
    // Unauthenticated it may be 401 before routing; either way an API error, never the shell.
    assert.ok([401, 404].includes(api.status), `status ${api.status}`);
    assert.match(api.headers.get("content-type") ?? "", /json/);
    assert.doesNotMatch(await api.text(), /<div id="root">/);
  });
});
