import { createContext, useContext } from "react";
import type { Citation } from "./citation";

/** Citations tells links in answers how to resolve and open a kb:// URI; absent outside the chat. */
export interface Citations {
  root: string;
  /** the conversation's folder: URIs outside it are plain text */
  scope: string;
  open: (c: Citation) => void;
}

export const CitationContext = createContext<Citations | null>(null);

export function useCitations(): Citations | null {
  return useContext(CitationContext);
}
