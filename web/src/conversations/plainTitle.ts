// A conversation's title is the first line of its first question, often
// Markdown; the list shows it as the words a reader sees.

const RULES: [RegExp, string][] = [
  [/!\[([^\]]*)\]\([^)]*\)/g, "$1"], // image: its alt text
  [/\[([^\]]+)\]\([^)]*\)/g, "$1"], // link: its text
  [/<\/?[a-z][^>]*>/gi, ""], // inline HTML tags
  [/^\s{0,3}(?:#{1,6}\s+|>\s*|[-*+]\s+(?:\[[ xX]\]\s+)?|\d{1,9}[.)]\s+)+/, ""], // heading, quote, list item
  [/(\*{1,3}|_{1,3})(?=\S)(.+?)(?<=\S)\1(?![\p{L}\p{N}])/gu, "$2"], // emphasis
  [/~~(.+?)~~/g, "$1"], // strikethrough
  [/`+([^`]*)`+/g, "$1"], // code
];

/** plainTitle is a title without its Markdown: "**Why** is `x` slow?" reads "Why is x slow?". */
export function plainTitle(title: string): string {
  let s = title;
  for (const [re, to] of RULES) s = s.replace(re, to);
  return s.replace(/\s+/g, " ").trim();
}
