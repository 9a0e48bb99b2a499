import { useState } from "react";
import { messageOf } from "../ui/errors";
import type { APIToken, TokenScope } from "./api";
import { useIssueToken } from "./tokenQueries";

/**
 * useCreateToken is the create half of both token forms (Tokens and Connect
 * an agent): one request at a time, the form's error, and the secret shown
 * once, until dismissed.
 */
export function useCreateToken() {
  const issue = useIssueToken();
  // A form's own complaint (a missing name, a failed copy) until the next try.
  const [complaint, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<APIToken | null>(null);

  async function create(name: string, days: number, scope?: TokenScope): Promise<boolean> {
    setError(null);
    try {
      setCreated(await issue.mutateAsync({ name, days, scope }));
      return true;
    } catch {
      return false;
    }
  }
  return {
    busy: issue.isPending,
    error: complaint ?? (issue.isError ? messageOf(issue.error) : null),
    setError,
    created,
    /** forgetSecret stops showing the new token's secret */
    forgetSecret: () => setCreated(null),
    create,
  };
}
