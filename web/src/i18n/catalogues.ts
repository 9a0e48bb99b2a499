// Each feature keeps its strings in its own namespace file, one per
// language, so features can be translated (and edited) independently.
type Catalogue = { [key: string]: string | Catalogue };

const files = import.meta.glob<Catalogue>("./locales/*/*.json", { eager: true, import: "default" });

export const catalogues: Record<string, Record<string, Catalogue>> = {};
for (const [path, cat] of Object.entries(files)) {
  const [, lng, ns] = /\.\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path) ?? [];
  if (!lng || !ns) continue;
  (catalogues[lng] ??= {})[ns] = cat;
}

export const namespaces = Object.keys(catalogues.en ?? {});

/** flatKeys lists a catalogue's leaf keys as dotted paths. */
export function flatKeys(cat: Catalogue, prefix = ""): string[] {
  return Object.entries(cat).flatMap(([k, v]) =>
    typeof v === "string" ? [prefix + k] : flatKeys(v, `${prefix}${k}.`),
  );
}
