import { Bot } from "lucide-react";
import { relativePath } from "../api/uri";

/** AgentPlaceholder holds KnowAgent's place until the chat lands. */
export function AgentPlaceholder({ scope, root }: { scope: string; root: string }) {
  return (
    <div className="agent-placeholder">
      <div className="panel-header">
        <h2 className="panel-title">
          <Bot size={16} aria-hidden /> KnowAgent
        </h2>
      </div>
      <div className="empty-state">
        <p>KnowAgent will answer questions about</p>
        <code className="scope" title={scope}>
          {relativePath(scope, root) || "your files"}
        </code>
        <p className="muted">The chat is coming soon.</p>
      </div>
    </div>
  );
}
