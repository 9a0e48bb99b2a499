// The provenance block a compiled file starts with (internal/compile's
// frontMatter): a few "key: value" lines and a list of sources. Read here
// by its shape, not by a YAML library, so the preview can show it as
// properties instead of Markdown's rule and a bullet of jammed hashes.

export interface FrontMatter {
  /** top-level fields, values unquoted, trailing comments dropped */
  fields: Record<string, string>;
  /** the sources list, one record per "- uri:" item */
  sources: Record<string, string>[];
}

/** splitFrontMatter returns the block at the very start of text, if any, and the text after it. */
export function splitFrontMatter(text: string): { meta: FrontMatter | null; body: string } {
  const m = /^---\n([\s\S]*?)\n---\n\n?/.exec(text);
  if (!m) return { meta: null, body: text };
  const meta: FrontMatter = { fields: {}, sources: [] };
  let inList = "";
  for (const line of (m[1] ?? "").split("\n")) {
    const top = /^([A-Za-z_][\w-]*):\s*(.*)$/.exec(line);
    if (top) {
      const [, key = "", value = ""] = top;
      inList = value === "" ? key : "";
      if (value !== "") meta.fields[key] = scalar(value);
      continue;
    }
    const item = /^\s+(-\s+)?([A-Za-z_][\w-]*):\s*(.*)$/.exec(line);
    if (!item || inList !== "sources") continue;
    const [, dash, key = "", value = ""] = item;
    if (dash || meta.sources.length === 0) meta.sources.push({});
    const current = meta.sources[meta.sources.length - 1];
    if (current) current[key] = scalar(value);
  }
  return { meta, body: text.slice(m[0].length) };
}

/** scalar unquotes a value and drops a trailing "# comment". */
function scalar(raw: string): string {
  const v = raw.trim();
  if (v.startsWith('"')) {
    try {
      return JSON.parse(v.slice(0, v.lastIndexOf('"') + 1)) as string;
    } catch {
      return v;
    }
  }
  return v.replace(/\s+#.*$/, "");
}
