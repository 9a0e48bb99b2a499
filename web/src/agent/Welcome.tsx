import { Bot } from "lucide-react";

/** exampleQuestions are starting points for a folder. */
export function exampleQuestions(scopeURI: string, label: string): string[] {
  const where = label || "my files";
  return [
    `What is in ${scopeURI}? Give me a short tour.`,
    `Summarize the main points of the documents in ${where}.`,
    `Which open questions or decisions are recorded in ${where}?`,
    `Search ${where} for deadlines and list them with their files.`,
  ];
}

/** Welcome greets a new conversation with example questions for the current folder. */
export function Welcome(props: { scopeURI: string; label: string; textOnly: boolean; onPick: (q: string) => void }) {
  return (
    <div className="welcome">
      <Bot size={26} aria-hidden className="welcome-icon" />
      <p className="welcome-title">Ask KnowAgent about {props.label ? <code className="scope">{props.label}</code> : "your files"}</p>
      <p className="muted small">
        It reads the folder with ls, read and search, and shows each step. Type <kbd>/</kbd> for commands.
      </p>
      {props.textOnly && (
        <p className="notice small">
          The chosen model is text only: it cannot call tools and answers from what the server includes. Use{" "}
          <code>/ls</code> to browse the folder yourself.
        </p>
      )}
      <ul className="examples" aria-label="Example questions">
        {exampleQuestions(props.scopeURI, props.label).map((q) => (
          <li key={q}>
            <button type="button" className="example" onClick={() => props.onPick(q)}>
              {q}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
