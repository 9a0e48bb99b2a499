import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { messageOf } from "../ui/errors";
import { createToken } from "./api";
import type { APIToken, TokenScope } from "./api";

export const TOKENS_KEY = ["my-tokens"] as const;

/**
 * useCreateToken is the create half of both token forms (Tokens and Connect
 * an agent): one request at a time, its error, the secret shown once, and
 * the token list refreshed so the new row appears.
 */
export function useCreateToken() {
  const qc = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<APIToken | null>(null);

  async function create(name: string, days: number, scope?: TokenScope): Promise<boolean> {
    setBusy(true);
    setError(null);
    try {
      setCreated(await createToken(name, days, scope));
      await qc.invalidateQueries({ queryKey: TOKENS_KEY });
      return true;
    } catch (err) {
      setError(messageOf(err));
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, setError, created, setCreated, create };
}
