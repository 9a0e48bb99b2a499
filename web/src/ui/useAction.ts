import { useState } from "react";
import { messageOf } from "./errors";

/**
 * useAction runs one user action at a time and keeps what the page says
 * about it: busy while it runs, then either its error or its notice (never
 * both). after (e.g. reloading a list) runs whether the action worked or not.
 */
export function useAction(after?: () => Promise<unknown>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  /** refuse says why an action was not even tried. */
  const refuse = (why: string) => {
    setNotice(null);
    setError(why);
  };
  /** tell reports an action that ended elsewhere (a dialog). */
  const tell = (done: string) => {
    setError(null);
    setNotice(done);
  };
  /** run answers whether the action worked. */
  async function run(action: () => Promise<unknown>, done: string): Promise<boolean> {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      await action();
      setNotice(done);
      return true;
    } catch (err) {
      setError(messageOf(err));
      return false;
    } finally {
      await after?.();
      setBusy(false);
    }
  }
  return { busy, error, notice, run, refuse, tell };
}
