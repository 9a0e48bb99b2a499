// Initial JavaScript of the app shell, gzipped (issue 7: aim under 250 KB).
// web/scripts/bundle-size.mjs measures web/dist (entry chunk + its static
// imports, lazy chunks excluded); this test runs it and checks that the
// binary under test serves that very build.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { before, describe, it } from "node:test";
import { E2E_DIR } from "../lib/server.mjs";
import { withWorkspace } from "../lib/fixture.mjs";

const LIMIT_KB = 250;
const WEB_DIR = path.resolve(E2E_DIR, "..", "web");

describe("initial JavaScript budget", { timeout: 60_000 }, () => {
  const ws = withWorkspace({ browser: false });
  let server;
  before(() => ({ server } = ws));

  it(`the app shell's initial JavaScript is under ${LIMIT_KB} KB gzipped, and the binary serves that build`, async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [path.join(WEB_DIR, "scripts", "bundle-size.mjs"), "--json", "--limit-kb", String(LIMIT_KB)],
      { cwd: WEB_DIR },
    ).catch((err) => {
      throw new Error(`bundle-size.mjs failed (${err.code}): ${err.stderr || err.stdout}`);
    });
    const report = JSON.parse(stdout);
    assert.ok(report.total.gz > 0);
    assert.ok(report.total.gz <= LIMIT_KB * 1000, `initial JS ${report.total.gz} B gzipped`);
    assert.ok(report.lazy_js.length >= 1, "the markdown and CSV previews stay lazy");

    // The entry the binary serves is the one measured.
    const html = await (await fetch(`${server.baseURL}/`)).text();
    const served = [...html.matchAll(/<script\b[^>]*type="module"[^>]*src="\/([^"]+)"/g)].map((m) => m[1]);
    assert.equal(served.length, 1, html);
    assert.ok(
      report.initial_js.some((f) => f.file === served[0]),
      `the binary serves ${served[0]}, web/dist has ${report.initial_js.map((f) => f.file).join(", ")}: rebuild one of them`,
    );
    const res = await fetch(`${server.baseURL}/${served[0]}`);
    assert.equal(res.status, 200);
    console.log(`# initial JS: ${report.initial_js.length} file(s), ${(report.total.raw / 1000).toFixed(1)} KB raw, ${(report.total.gz / 1000).toFixed(1)} KB gzip`);
  });
});
