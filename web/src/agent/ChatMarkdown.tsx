import { Suspense, lazy, memo } from "react";

const MarkdownView = lazy(() => import("../preview/MarkdownView"));

/**
 * ChatMarkdown renders a message as markdown; until the markdown code has
 * loaded, the same text shows as pre-wrapped plain text in the same box.
 */
export const ChatMarkdown = memo(function ChatMarkdown({ text }: { text: string }) {
  return (
    <div className="chat-md">
      <Suspense fallback={<div className="chat-plain">{text}</div>}>
        <MarkdownView text={text} />
      </Suspense>
    </div>
  );
});
