import { ApiError } from "../api/client";

/** messageOf turns anything thrown into a sentence to show. */
export function messageOf(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error && err.message) return err.message;
  return "Something went wrong.";
}
