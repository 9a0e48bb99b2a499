import { extensionOf } from "../api/uri";

export type PreviewKind = "markdown" | "csv" | "code" | "text";

const CODE: Record<string, string> = {
  go: "go", ts: "typescript", tsx: "typescript", js: "javascript", jsx: "javascript", mjs: "javascript",
  py: "python", rs: "rust", java: "java", c: "c", h: "c", cpp: "cpp", cc: "cpp", sh: "bash",
  sql: "sql", yaml: "yaml", yml: "yaml", toml: "ini", json: "json", html: "xml", xml: "xml", css: "css",
  rb: "ruby", php: "php", kt: "kotlin", swift: "swift", cs: "csharp",
};

/** previewKind chooses how to show a file from its name and body kind. */
export function previewKind(name: string, body: "l2" | "raw" | "none"): PreviewKind {
  const ext = extensionOf(name);
  // A parsed body (L2) of a PDF or DOCX is text, however the file is named.
  if (ext === "md" || ext === "markdown") return "markdown";
  if (body === "l2" && !(ext in CODE) && ext !== "csv" && ext !== "tsv") return "text";
  if (ext === "csv" || ext === "tsv") return "csv";
  if (ext in CODE) return "code";
  return "text";
}

/** codeLanguage names the highlight.js language for a file, if known. */
export function codeLanguage(name: string): string | undefined {
  return CODE[extensionOf(name)];
}
