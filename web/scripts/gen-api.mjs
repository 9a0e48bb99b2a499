#!/usr/bin/env node
// src/api/schema.d.ts is generated from the server's OpenAPI document (the
// YAML files of internal/httpapi/openapi, merged by `go run ./cmd/openapi`
// exactly as GET /api/v1/openapi.json serves them) with openapi-typescript.
//
//   node scripts/gen-api.mjs           write src/api/schema.d.ts (npm run gen:api)
//   node scripts/gen-api.mjs --check   exit 1 if it is not current (npm run check:api)
//
// make test runs the check, so the document and the web app's types cannot
// drift apart. It needs Go, as the server's build does.

import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString, COMMENT_HEADER } from "openapi-typescript";

const here = path.dirname(fileURLToPath(import.meta.url));
const web = path.resolve(here, "..");
const repo = path.resolve(web, "..");
const target = path.join(web, "src", "api", "schema.d.ts");
const relTarget = path.relative(repo, target);
const check = process.argv.includes("--check");

let doc;
try {
  doc = execFileSync(process.env.GO || "go", ["run", "./cmd/openapi"], {
    cwd: repo,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 64 << 20,
  });
} catch (err) {
  console.error(`gen-api: could not print the OpenAPI document with \`go run ./cmd/openapi\`: ${err.message}`);
  process.exit(2);
}

// A schema of type object with no properties (a job's configuration and
// result) allows any fields in JSON Schema: unknown, not Record<string, never>.
const ast = await openapiTS(JSON.parse(doc), { emptyObjectsUnknown: true });
const generated =
  COMMENT_HEADER +
  "// Generated from internal/httpapi/openapi by web/scripts/gen-api.mjs (npm run gen:api).\n\n" +
  astToString(ast);

if (!check) {
  writeFileSync(target, generated);
  console.log(`gen-api: wrote ${relTarget}`);
  process.exit(0);
}

const committed = existsSync(target) ? readFileSync(target, "utf8") : null;
if (committed === generated) {
  console.log(`gen-api: ${relTarget} matches the OpenAPI document`);
  process.exit(0);
}
const a = (committed ?? "").split("\n");
const b = generated.split("\n");
let line = 0;
while (line < a.length && line < b.length && a[line] === b[line]) line++;
console.error(
  committed === null
    ? `gen-api: ${relTarget} is missing.`
    : `gen-api: ${relTarget} is out of date with the OpenAPI document (internal/httpapi/openapi); first difference at line ${line + 1}:\n` +
        `  committed: ${a[line] ?? "(end of file)"}\n  generated: ${b[line] ?? "(end of file)"}`,
);
console.error("Run `cd web && npm run gen:api` and commit src/api/schema.d.ts.");
process.exit(1);
