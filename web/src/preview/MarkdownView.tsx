import ReactMarkdown from "react-markdown";
import remarkGfm from "remark-gfm";
import rehypeHighlight from "rehype-highlight";
import { useMemo } from "react";
import { imageComponent, urlTransform } from "./MarkdownImage";
import { CitationLink } from "../citations/CitationLink";
import { CodeBlock } from "./CodeBlock";
import { rehypeKbLinks } from "../citations/linkify";
import { rehypeMarks } from "./marks";

const remarkPlugins = [remarkGfm];
// ignoreMissing: an unknown fence language renders plain instead of throwing.
const rehypePlugins: [typeof rehypeHighlight, { detect: boolean; ignoreMissing: boolean }][] = [
  [rehypeHighlight, { detect: false, ignoreMissing: true }],
];
// Find hits are marked last, inside the highlighted code's spans too.
const markedPlugins = (mark: string) => [...rehypePlugins, [rehypeMarks, { query: mark }] as [typeof rehypeMarks, { query: string }]];
// In answers, kb:// URIs are citations: linked here, judged by CitationLink.
const answerRehype = [rehypeKbLinks, ...rehypePlugins];

function answerUrlTransform(url: string, key: string): string {
  return key === "href" && url.startsWith("kb://") ? url : urlTransform(url, key);
}

/**
 * MarkdownView renders a markdown page (GFM tables, task lists, highlighted
 * code with a copy button). base is the document's URI: its relative images resolve against it.
 * Images from outside the workspace are never fetched (see imageSource).
 */
export default function MarkdownView({ text, base, answer, mark }: { text: string; base?: string; answer?: boolean; mark?: string }) {
  const rehype = useMemo(() => (answer ? answerRehype : mark ? markedPlugins(mark) : rehypePlugins), [answer, mark]);
  const components = useMemo(
    () => (answer ? { img: imageComponent(base), a: CitationLink, pre: CodeBlock } : { img: imageComponent(base), pre: CodeBlock }),
    [base, answer],
  );
  return (
    <article className="markdown">
      <ReactMarkdown
        remarkPlugins={remarkPlugins}
        rehypePlugins={rehype}
        components={components}
        urlTransform={answer ? answerUrlTransform : urlTransform}
      >
        {text}
      </ReactMarkdown>
    </article>
  );
}

/** CodeView shows source code highlighted, through the same pipeline; mark is a find query to mark. */
export function CodeView({ text, language, mark }: { text: string; language?: string; mark?: string }) {
  const rehype = useMemo(() => (mark ? markedPlugins(mark) : rehypePlugins), [mark]);
  const fence = "`".repeat(Math.max(3, longestBacktickRun(text) + 1));
  return (
    <article className="markdown code-view">
      <ReactMarkdown rehypePlugins={rehype}>{`${fence}${language ?? ""}\n${text}\n${fence}`}</ReactMarkdown>
    </article>
  );
}

function longestBacktickRun(s: string): number {
  let best = 0;
  for (const m of s.matchAll(/`+/g)) best = Math.max(best, m[0].length);
  return best;
}
