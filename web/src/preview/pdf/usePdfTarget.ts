// Where a jump into a PDF lands in the Pages view: the page whose text holds
// the jump's offset (the server says which pages a window of text comes
// from) and the words to highlight there. No pdf.js here: this runs before
// the viewer is loaded.

import { useQuery } from "@tanstack/react-query";
import { readContent } from "../../api/resources";
import { queryKeys } from "../../api/queryKeys";
import { citedPassage } from "./layout";

/** PASSAGE_CHARS is how much text at the offset is read to find its page and words. */
const PASSAGE_CHARS = 200;

export function usePdfTarget(uri: string, offset: number | undefined, query: string | undefined, enabled: boolean) {
  const q = useQuery({
    queryKey: queryKeys.contentAt(uri, offset ?? 0),
    queryFn: ({ signal }) => readContent(uri, offset ?? 0, PASSAGE_CHARS, signal),
    enabled: enabled && offset !== undefined,
    staleTime: Infinity,
  });
  const page = q.data?.pages?.[0];
  if (!q.data || page === undefined) return undefined;
  return { page, passage: citedPassage(q.data.text, query), n: offset ?? 0 };
}
