// Runs the tree search as the user types: debounced, one request in flight
// (a newer search or page aborts the older), and what it returns is tagged
// with the key it was computed for, so the view never pairs a query with
// another query's answer.

import { useCallback, useEffect, useRef, useState } from "react";
import { searchResources } from "../api/search";
import { messageOf } from "../ui/errors";
import { firstPage, sameKey, withMore } from "./model";
import type { Results, SearchKey } from "./model";
import { searchRequestOf } from "./mode";
import type { MultiWordMode } from "./mode";

/** DEBOUNCE_MS is how long typing must pause before a search is sent. */
export const DEBOUNCE_MS = 200;

export type SearchView =
  | { status: "idle" }
  | { status: "loading"; key: SearchKey }
  | { status: "error"; key: SearchKey; message: string }
  | { status: "ready"; key: SearchKey; results: Results; more: "idle" | "loading" | { error: string } };

const IDLE: SearchView = { status: "idle" };

/**
 * useTreeSearch searches scope for text, in the mode searchRequestOf reads
 * from it (several words in multiWord). The view it returns is for exactly
 * that key, or "loading" while the debounce or the request for it is
 * pending; more() fetches the next page of the shown results.
 */
export function useTreeSearch(
  scope: string,
  text: string,
  { delay = DEBOUNCE_MS, multiWord }: { delay?: number; multiWord?: MultiWordMode } = {},
): { view: SearchView; more: () => void } {
  const { q, mode } = searchRequestOf(text, multiWord);
  const [state, setState] = useState<SearchView>(IDLE);
  const inFlight = useRef<AbortController | null>(null);

  const begin = () => {
    inFlight.current?.abort();
    const c = new AbortController();
    inFlight.current = c;
    return c;
  };

  useEffect(() => {
    inFlight.current?.abort();
    if (!q) {
      setState(IDLE);
      return;
    }
    const key: SearchKey = { uri: scope, q, mode };
    const timer = setTimeout(() => {
      const c = begin();
      setState({ status: "loading", key });
      searchResources({ uri: key.uri, q: key.q, mode: key.mode }, c.signal).then(
        (res) => !c.signal.aborted && setState({ status: "ready", key, results: firstPage(key, res), more: "idle" }),
        (err: unknown) => !c.signal.aborted && setState({ status: "error", key, message: messageOf(err) }),
      );
    }, delay);
    return () => {
      clearTimeout(timer);
      inFlight.current?.abort();
    };
  }, [scope, q, mode, delay]);

  const more = useCallback(() => {
    if (state.status !== "ready" || state.results.cursor === null || state.more === "loading") return;
    const { key } = state;
    const cursor = state.results.cursor;
    const c = begin();
    // Only the results of this key, still at this cursor, take the page.
    const update = (f: (v: Extract<SearchView, { status: "ready" }>) => SearchView) =>
      setState((v) => (v.status === "ready" && sameKey(v.key, key) && v.results.cursor === cursor ? f(v) : v));
    update((v) => ({ ...v, more: "loading" }));
    searchResources({ uri: key.uri, q: key.q, mode: key.mode, cursor }, c.signal).then(
      (res) => !c.signal.aborted && update((v) => ({ ...v, results: withMore(v.results, key, cursor, res), more: "idle" })),
      (err: unknown) => !c.signal.aborted && update((v) => ({ ...v, more: { error: messageOf(err) } })),
    );
  }, [state]);

  const live: SearchKey = { uri: scope, q, mode };
  const view: SearchView = !q ? IDLE : state.status !== "idle" && sameKey(state.key, live) ? state : { status: "loading", key: live };
  return { view, more };
}
