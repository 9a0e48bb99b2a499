// A folder command request whose answer stays tied to the request that asked
// for it. Labels ("page 2", "Items 51–60") are computed from the settled
// request, never from the current parameters: otherwise, in the frame
// between a click and the effect that marks the new request as loading, the
// new label is painted over the old data (the flaky "/ls … search with a
// cursor" test of issue 18).

import { useEffect, useRef, useState } from "react";
import { messageOf } from "../../ui/errors";

export interface Settled<R, T> {
  key: string;
  req: R;
  data?: T;
  error?: string;
}

export interface CommandState<R, T> {
  /** the answer to the current request, once it arrived */
  current?: Settled<R, T>;
  /** the last answer of any request, to keep a list on screen while the next one loads */
  last?: Settled<R, T>;
  loading: boolean;
}

/**
 * useCommand runs run(req) whenever keyOf(req) changes. A response counts only
 * when its request is still the newest one: an aborted request that resolves
 * anyway (a fetch that ignored its signal) is dropped.
 */
export function useCommand<R, T>(
  req: R | null,
  keyOf: (r: R) => string,
  run: (r: R, signal: AbortSignal) => Promise<T>,
): CommandState<R, T> {
  const key = req === null ? null : keyOf(req);
  const [settled, setSettled] = useState<Settled<R, T> | undefined>(undefined);
  const newest = useRef<string | null>(null);
  const reqRef = useRef(req);
  reqRef.current = req;
  const runRef = useRef(run);
  runRef.current = run;
  useEffect(() => {
    newest.current = key;
    const r = reqRef.current;
    if (key === null || r === null) return;
    const ac = new AbortController();
    const settle = (s: Settled<R, T>) => {
      if (newest.current === key && !ac.signal.aborted) setSettled(s);
    };
    runRef.current(r, ac.signal).then(
      (data) => settle({ key, req: r, data }),
      (err: unknown) => settle({ key, req: r, error: messageOf(err) }),
    );
    return () => ac.abort();
  }, [key]);
  const current = settled && settled.key === key ? settled : undefined;
  return { current, last: settled, loading: key !== null && !current };
}
