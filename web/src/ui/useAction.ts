import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { messageOf } from "./errors";

interface Step {
  action: () => Promise<unknown>;
  done: string;
}

/**
 * useAction runs one user action at a time (typically a write hook's
 * mutateAsync) and keeps what the page says about it: busy while it runs,
 * then either its error or its notice (never both).
 */
export function useAction() {
  const step = useMutation({ mutationFn: (s: Step) => s.action() });
  // What the page said last outside an action: a refusal, or news from a dialog.
  const [said, setSaid] = useState<{ error: string | null; notice: string | null } | null>(null);

  /** run answers whether the action worked. */
  async function run(action: () => Promise<unknown>, done: string): Promise<boolean> {
    setSaid(null);
    try {
      await step.mutateAsync({ action, done });
      return true;
    } catch {
      return false;
    }
  }
  return {
    busy: step.isPending,
    error: said ? said.error : step.isError ? messageOf(step.error) : null,
    notice: said ? said.notice : step.isSuccess ? step.variables.done : null,
    run,
    /** refuse says why an action was not even tried. */
    refuse: (why: string) => setSaid({ error: why, notice: null }),
    /** tell reports an action that ended elsewhere (a dialog). */
    tell: (done: string) => setSaid({ error: null, notice: done }),
  };
}
