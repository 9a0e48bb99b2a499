#!/usr/bin/env node
// Initial JavaScript of the app shell, gzipped: the entry chunk that
// dist/index.html loads plus every chunk it imports statically (recursively),
// but not the chunks it loads with import() (markdown, CSV preview). Each file
// is gzipped on its own at level 9, as a server or CDN would send it.
//
//   node scripts/bundle-size.mjs [--dist dist] [--limit-kb 250] [--json] [--if-built]
//
// Exits 1 when the total exceeds the limit (KB = 1000 bytes), 2 when dist/
// is missing or malformed. --if-built (used by npm test, which may run before
// any build) only notes a missing dist/ and exits 0; the browser tests always
// check the size of the build they run against.

import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { init, parse } from "es-module-lexer";

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1] : dflt;
};
const dist = path.resolve(here, "..", opt("--dist", "dist"));
const limitKB = Number(opt("--limit-kb", "250"));
const asJSON = args.includes("--json");

const indexFile = path.join(dist, "index.html");
if (!existsSync(indexFile)) {
  if (args.includes("--if-built")) {
    console.log(`bundle-size: skipped, ${indexFile} not built yet (npm run build)`);
    process.exit(0);
  }
  console.error(`bundle-size: ${indexFile} not found; run npm run build first`);
  process.exit(2);
}
const html = readFileSync(indexFile, "utf8");

// Module scripts and modulepreload links of index.html are loaded up front.
const entries = new Set();
for (const m of html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g)) entries.add(m[1]);
for (const m of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)) entries.add(m[1]);
const css = [...html.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*\bhref="([^"]+)"/g)].map((m) => m[1]);
if (entries.size === 0) {
  console.error("bundle-size: no module script in index.html");
  process.exit(2);
}

const toFile = (url) => path.join(dist, url.replace(/^\//, ""));
await init;

/** walk follows static imports only (import x from / export … from / import "x"). */
const files = new Map(); // file -> { raw, gz }
const lazy = new Set();
function walk(file) {
  if (files.has(file)) return;
  const code = readFileSync(file);
  files.set(file, { raw: code.length, gz: gzipSync(code, { level: 9 }).length });
  const [imports] = parse(code.toString("utf8"));
  for (const imp of imports) {
    if (!imp.n || !imp.n.startsWith(".") && !imp.n.startsWith("/")) continue; // bare or unresolvable
    const target = imp.n.startsWith("/") ? toFile(imp.n) : path.resolve(path.dirname(file), imp.n);
    if (imp.d === -1) walk(target); // static
    else if (imp.d >= 0) lazy.add(target); // dynamic import()
  }
}
for (const e of entries) walk(toFile(e));
for (const f of files.keys()) lazy.delete(f);

const sum = (list, k) => list.reduce((n, x) => n + x[k], 0);
const initial = [...files.entries()].map(([f, s]) => ({ file: path.relative(dist, f), ...s }));
const lazyList = [...lazy].filter(existsSync).map((f) => {
  const code = readFileSync(f);
  return { file: path.relative(dist, f), raw: code.length, gz: gzipSync(code, { level: 9 }).length };
});
const cssList = css.map((u) => {
  const code = readFileSync(toFile(u));
  return { file: path.relative(dist, toFile(u)), raw: code.length, gz: gzipSync(code, { level: 9 }).length };
});
const total = { raw: sum(initial, "raw"), gz: sum(initial, "gz") };
const kb = (n) => `${(n / 1000).toFixed(1)} KB`;

if (asJSON) {
  console.log(JSON.stringify({ limit_kb: limitKB, initial_js: initial, total, lazy_js: lazyList, css: cssList }, null, 2));
} else {
  console.log("Initial JavaScript (entry + static imports), gzip -9 per file:");
  for (const f of initial) console.log(`  ${f.file.padEnd(40)} ${kb(f.raw).padStart(10)} raw  ${kb(f.gz).padStart(10)} gzip`);
  console.log(`  ${"total".padEnd(40)} ${kb(total.raw).padStart(10)} raw  ${kb(total.gz).padStart(10)} gzip  (limit ${limitKB} KB)`);
  if (cssList.length) console.log(`CSS up front: ${cssList.map((f) => `${f.file} ${kb(f.gz)} gzip`).join(", ")}`);
  if (lazyList.length) console.log(`Lazy chunks (not counted): ${lazyList.map((f) => `${f.file} ${kb(f.gz)} gzip`).join(", ")}`);
}
if (total.gz > limitKB * 1000) {
  console.error(`bundle-size: initial JavaScript is ${kb(total.gz)} gzipped, over the ${limitKB} KB budget`);
  process.exit(1);
}
