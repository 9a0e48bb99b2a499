// Runs axe-core inside the page: the accessibility checks of issue 18 step 5.

import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
let source;

/** BLOCKING are the impacts a test fails on; minor and moderate ones are only printed. */
export const BLOCKING = new Set(["serious", "critical"]);

/**
 * axeViolations injects axe-core (once per document) and returns its
 * violations for the page, or for the part of it that `include` selects.
 */
export async function axeViolations(page, include) {
  source ??= await readFile(require.resolve("axe-core/axe.min.js"), "utf8");
  // Evaluated over the DevTools protocol: the app's CSP (script-src 'self') blocks a script tag.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(source);
  return page.evaluate(async (sel) => {
    const res = await window.axe.run(sel ? { include: [sel] } : document, {
      resultTypes: ["violations"],
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] },
    });
    return res.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => ({ target: n.target.join(" "), summary: n.failureSummary })),
    }));
  }, include ?? null);
}

/** formatViolations is one line per violation and one per failing node, for a failure message. */
export function formatViolations(violations) {
  return violations
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n${v.targets.map((t) => `    ${t.target} — ${t.summary?.replaceAll("\n", " ")}`).join("\n")}`)
    .join("\n");
}

/** blocking keeps the serious and critical violations. */
export function blocking(violations) {
  return violations.filter((v) => BLOCKING.has(v.impact));
}

/**
 * assertAccessible fails on serious or critical violations in the part of the
 * page include selects (the whole page without it), in the light and the dark
 * colour scheme; it leaves the page light.
 */
export async function assertAccessible(page, include) {
  for (const colorScheme of ["light", "dark"]) {
    await page.emulateMedia({ colorScheme });
    const bad = blocking(await axeViolations(page, include));
    assert.equal(bad.length, 0, `${include ?? "page"} (${colorScheme}):\n${formatViolations(bad)}`);
  }
  await page.emulateMedia({ colorScheme: "light" });
}
