import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { catalogues, flatKeys, namespaces } from "./catalogues";
import { languages } from "./index";

const plural = /_(zero|one|two|few|many|other)$/;
const base = (k: string) => k.replace(plural, "");
const placeholders = (s: string) => [...s.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]).sort();

function leaves(lng: string, ns: string): Map<string, string> {
  const cat = catalogues[lng]?.[ns] ?? {};
  const out = new Map<string, string>();
  for (const k of flatKeys(cat)) {
    const v = k.split(".").reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], cat);
    out.set(k, v as string);
  }
  return out;
}

describe("catalogues", () => {
  it("has the same namespaces in every language", () => {
    for (const lng of languages) expect(Object.keys(catalogues[lng] ?? {}).sort()).toEqual([...namespaces].sort());
  });

  for (const ns of namespaces) {
    it(`${ns}: every key exists in every language, non-empty, with the same placeholders`, () => {
      const en = leaves("en", ns);
      for (const lng of languages.slice(1)) {
        const other = leaves(lng, ns);
        const enBases = new Set([...en.keys()].map(base));
        const otherBases = new Set([...other.keys()].map(base));
        expect([...enBases].filter((k) => !otherBases.has(k)), `missing in ${lng}`).toEqual([]);
        expect([...otherBases].filter((k) => !enBases.has(k)), `only in ${lng}`).toEqual([]);
        for (const [k, v] of other) {
          expect(v.trim(), `${lng}:${ns}:${k} is empty`).not.toBe("");
          const enValue = en.get(k) ?? en.get(`${base(k)}_other`) ?? en.get(base(k)) ?? "";
          expect(placeholders(v), `${lng}:${ns}:${k} placeholders`).toEqual(placeholders(enValue));
        }
      }
    });
  }
});

// Every literal key the source asks for must be in the English catalogue;
// a typo or a forgotten entry would otherwise show the raw key.
describe("keys used in the source", () => {
  const root = path.resolve(__dirname, "..");
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = path.join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) files.push(p);
    }
  };
  walk(root);
  const known = new Map(namespaces.map((ns) => [ns, new Set([...leaves("en", ns).keys()].map(base))]));

  it("finds them all in the English catalogue", () => {
    const missing: string[] = [];
    for (const file of files) {
      const src = readFileSync(file, "utf8");
      const declared = /useTranslation\(\s*\[?\s*["']([\w-]+)["']/.exec(src)?.[1] ?? "common";
      for (const m of src.matchAll(/(?<![\w.])(?:t|i18n\.t)\(\s*["']([^"'`]+)["']/g)) {
        const key = m[1] ?? "";
        const [ns = "", k = ""] = key.includes(":") ? key.split(":", 2) : [declared, key];
        if (!known.get(ns)?.has(base(k))) missing.push(`${path.relative(root, file)}: ${ns}:${k}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
