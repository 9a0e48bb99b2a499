// What the input box means: a question for the model, or a command that the
// page handles itself and never sends to the model.

export type CommandName = "ls" | "compile" | "status" | "new";

export interface CommandInfo {
  name: CommandName;
  /** what the user types after "/" */
  slash: string;
  label: string;
  /** the key, in the agent namespace, of what the command does */
  hint: "commands.ls" | "commands.compile" | "commands.status" | "commands.new";
}

/** COMMANDS are the entries of the "/" menu. */
export const COMMANDS: readonly CommandInfo[] = [
  { name: "ls", slash: "ls", label: "/ls", hint: "commands.ls" },
  { name: "compile", slash: "compile", label: "/compile", hint: "commands.compile" },
  { name: "status", slash: "status", label: "/status", hint: "commands.status" },
  { name: "new", slash: "new", label: "/new", hint: "commands.new" },
];

/** QUICK_COMMANDS are words that, typed alone, run a command instead of asking the model. */
const QUICK: Record<string, CommandName> = {
  ls: "ls",
  compile: "compile",
  compiler: "compile",
  parse: "compile",
};

const SLASH: Record<string, CommandName> = {
  ...QUICK,
  status: "status",
  new: "new",
  clear: "new",
};

export type ParsedInput =
  | { kind: "empty" }
  | { kind: "command"; command: CommandName }
  | { kind: "unknown_command"; text: string }
  | { kind: "message"; text: string };

/**
 * parseInput decides what sending the input does. "ls", "compile",
 * "compiler" and "parse" typed alone (any case, surrounding spaces ignored)
 * and "/name" are commands; everything else is a question.
 */
export function parseInput(raw: string): ParsedInput {
  const text = raw.trim();
  if (!text) return { kind: "empty" };
  const word = text.toLowerCase();
  const quick = QUICK[word];
  if (quick) return { kind: "command", command: quick };
  if (word.startsWith("/") && !/\s/.test(word)) {
    const cmd = SLASH[word.slice(1)];
    return cmd ? { kind: "command", command: cmd } : { kind: "unknown_command", text };
  }
  return { kind: "message", text };
}

/**
 * menuMatches lists the "/" menu entries for the input so far, or null when
 * the menu should be closed (the input is not a lone "/word").
 */
export function menuMatches(raw: string): CommandInfo[] | null {
  if (!raw.startsWith("/") || /\s/.test(raw)) return null;
  const q = raw.slice(1).toLowerCase();
  return COMMANDS.filter((c) => c.slash.startsWith(q) || (q === "compiler" || q === "parse" ? c.name === "compile" : false));
}
