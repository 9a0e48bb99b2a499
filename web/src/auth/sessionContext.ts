// The signed-in session's shape and context, apart from the provider that
// fills it, so the UI's leaves (placeName) read who is signed in without
// importing the provider, which imports them.

import { createContext } from "react";
import type { User } from "../api/types";

export interface SessionValue {
  user: User | null;
  /** notice is shown on the login page, e.g. after the session expired. */
  notice: string | null;
  /** ssoError is the code a provider's sign-in failed with, for the login page to explain. */
  ssoError: string | null;
  /** redeeming: a provider's sign-in is being finished; the login page waits. */
  redeeming: boolean;
  signIn: (username: string, password: string) => Promise<void>;
  signOut: () => void;
  /** signedInHere: this page signed in (rather than loading a kept session), so focus has nowhere to be yet. */
  signedInHere: boolean;
}

export const SessionContext = createContext<SessionValue | null>(null);
