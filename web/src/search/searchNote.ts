// What a search page says about itself, in the reader's words: the server's
// note is written for agents (it names its fields, such as more_hits_in), so
// the app words the same facts from the fields and shows the server's text
// only for what no field carries.

import i18n from "../i18n";
import { formatNumber } from "../ui/format";

export interface NoteFields {
  note?: string;
  more_hits_in?: string[] | null;
  pending_files?: number;
  unranked_files?: number;
  unembedded_files?: number;
}

const counted = (key: string, count: number) => i18n.t(key, { count, n: formatNumber(count) });

/** searchNote is the page's note for a reader, or undefined when there is nothing to say. */
export function searchNote(res: NoteFields): string | undefined {
  const parts: string[] = [];
  if (res.pending_files) parts.push(counted("search:note.pending", res.pending_files));
  if (res.unranked_files) parts.push(counted("search:note.unranked", res.unranked_files));
  if (res.unembedded_files) parts.push(counted("search:note.unembedded", res.unembedded_files));
  if (res.more_hits_in?.length) parts.push(counted("search:note.moreHits", res.more_hits_in.length));
  if (parts.length === 0 && res.note) return res.note;
  return parts.length > 0 ? parts.join(" ") : undefined;
}
