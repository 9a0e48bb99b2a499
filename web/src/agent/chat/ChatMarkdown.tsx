import { Suspense, lazy, memo } from "react";

const MarkdownView = lazy(() => import("../../preview/MarkdownView"));

/**
 * ChatMarkdown renders a message as markdown; until the markdown code has
 * loaded, the same text shows as pre-wrapped plain text in the same box.
 * An answer's kb:// URIs are citations (see citations/CitationLink).
 */
export const ChatMarkdown = memo(function ChatMarkdown({ text, answer }: { text: string; answer?: boolean }) {
  return (
    <div className="chat-md">
      <Suspense fallback={<div className="chat-plain">{text}</div>}>
        <MarkdownView text={text} answer={answer} />
      </Suspense>
    </div>
  );
});
