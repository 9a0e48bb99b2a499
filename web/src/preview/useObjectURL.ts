// A workspace file shown from memory: fetched with the bearer token (an
// <img src> to the API could not send it) and handed to the page as a
// blob: URL, released when the file changes or the view goes away.

import { useEffect, useRef, useState } from "react";
import { messageOf } from "../ui/errors";

/** useObjectURL loads a blob for key while enabled; a new key cancels the previous load. */
export function useObjectURL(load: (signal: AbortSignal) => Promise<Blob>, key: string, enabled = true) {
  const [url, setURL] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const loader = useRef(load);
  loader.current = load;
  useEffect(() => {
    if (!enabled) return;
    const ac = new AbortController();
    let objectURL: string | null = null;
    setURL(null);
    setError(null);
    loader
      .current(ac.signal)
      .then((blob) => {
        objectURL = URL.createObjectURL(blob);
        setURL(objectURL);
      })
      .catch((err: unknown) => {
        if (!ac.signal.aborted) setError(messageOf(err));
      });
    return () => {
      ac.abort();
      if (objectURL) URL.revokeObjectURL(objectURL);
    };
  }, [key, enabled]);
  return { url, error };
}
