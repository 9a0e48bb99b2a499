// The set-up every browser test file shares: the binary on a free port, then
// Chromium, then a page signed in through the login form, torn down after.

import { after, before, it } from "node:test";
import { apiClient } from "./api.mjs";
import { WIDE, launchBrowser, loginThroughUI, newPage, shotOnFailure } from "./browser.mjs";
import { ADMIN_PASSWORD, ADMIN_USER, startServer } from "./server.mjs";

/** FAKE_LLM is the server environment that adds the fake models. */
export const FAKE_LLM = { KB_FAKE_LLM: "1" };

/**
 * withWorkspace registers before and after hooks on the enclosing suite and
 * returns the workspace they fill in: { server, browser, page, api, newPage,
 * apiAs }. Read its fields inside hooks and tests, not when the file loads.
 *
 * Options, in the order they take effect:
 *   env       extra server environment, or an async function returning it
 *   seed      async (ws) => …, after the server starts, before any page opens
 *   browser   false: no Chromium (API-only files); default true
 *   page      false: no page, the tests open their own; default true
 *   viewport, locale   the page's (default WIDE, en-US)
 *   onPage    (page, ws) => …, before signing in (listeners, routes)
 *   signIn    false: the page stays on nothing; default true (the login form)
 *   user, password     who signs in (default the admin)
 *   ready     async (ws) => …, after signing in (wait for the tree or the chat)
 *
 * api is the admin's authenticated client (lib/api.mjs); apiAs(user, password)
 * makes another user's; newPage(viewport, { locale }) opens a fresh context.
 *
 * ws.it(name, body) is node:test's it for a test of the workspace: body gets
 * the workspace ({ page, api, server, … }) and the test context, and when it
 * fails the page it shows last is saved as a screenshot: ws.page, or the one
 * it opened with ws.open or named with ws.show.
 */
export function withWorkspace(options = {}) {
  const {
    env = {},
    seed,
    browser: wantBrowser = true,
    page: wantPage = true,
    viewport = WIDE,
    locale,
    onPage,
    signIn = true,
    user = ADMIN_USER,
    password = ADMIN_PASSWORD,
    ready,
  } = options;
  const ws = {
    server: null,
    browser: null,
    page: null,
    api: null,
    apiAs: (name, pass) => apiClient(ws.server.baseURL, { username: name, password: pass }),
    newPage: (size = WIDE, opts) => newPage(ws.browser, ws.server.baseURL, size, opts),
    /** shown is the page a failure screenshot shows, when it is not ws.page */
    shown: null,
    show: (page) => {
      ws.shown = page;
      return page;
    },
    /**
     * open opens a page in a fresh context and shows it; signed in (as the
     * admin unless user and password say) unless signIn is false.
     */
    open: async ({ viewport = WIDE, locale, signIn = true, user: name, password: pass } = {}) => {
      const page = ws.show(await ws.newPage(viewport, locale ? { locale } : undefined));
      if (signIn) await loginThroughUI(page, name, pass);
      return page;
    },
    /** current is the page the test shows: the one it opened or named last, else ws.page */
    current: () => ws.shown ?? ws.page,
    it: (name, body) => it(name, shotOnFailure(() => ws.current(), (t) => body(ws, t))),
  };
  before(async () => {
    ws.server = await startServer(typeof env === "function" ? await env() : env);
    ws.api = apiClient(ws.server.baseURL);
    await seed?.(ws);
    if (!wantBrowser) return;
    ws.browser = await launchBrowser();
    if (!wantPage) return;
    ws.page = await ws.newPage(viewport, locale ? { locale } : undefined);
    await onPage?.(ws.page, ws);
    if (signIn) await loginThroughUI(ws.page, user, password);
    await ready?.(ws);
  });
  after(async () => {
    await ws.browser?.close();
    await ws.server?.stop();
  });
  return ws;
}
