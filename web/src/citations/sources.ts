// The files a turn's tools actually read, for the "Sources" list under an
// answer: taken from the tool events, not from what the model claims.

import type { Turn } from "../agent/chat/conversation";

export interface Source {
  uri: string;
  /** where the first read of this file started, code points */
  offset: number;
}

function argURI(args: string): string | null {
  try {
    const v: unknown = JSON.parse(args);
    if (v && typeof v === "object" && typeof (v as { uri?: unknown }).uri === "string") return (v as { uri: string }).uri;
  } catch {
    // invalid arguments: the result's URI, if any, is used instead
  }
  return null;
}

/** sourcesOf lists each file a successful read call of the turn read, once, in the order first read. */
export function sourcesOf(turn: Pick<Turn, "parts" | "tools">): Source[] {
  const out: Source[] = [];
  const seen = new Set<string>();
  for (const p of turn.parts) {
    if (p.kind !== "tool") continue;
    const card = turn.tools[p.id];
    if (!card || card.call.name !== "read" || !card.result?.ok) continue;
    const uri = card.result.uri ?? argURI(card.call.arguments);
    if (!uri || uri.endsWith("/") || seen.has(uri)) continue;
    seen.add(uri);
    const off = Number(card.result.offset ?? 0);
    out.push({ uri, offset: Number.isFinite(off) && off > 0 ? off : 0 });
  }
  return out;
}
