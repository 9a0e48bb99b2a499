// The agent options query: one definition for every page that reads them.

import { queryOptions, useQuery } from "@tanstack/react-query";
import { fetchAgentOptions } from "./agent";
import { queryKeys } from "./queryKeys";

/**
 * agentOptionsQuery is GET /knowledge-agent/options for useQuery and
 * fetchQuery. The options change with the server's configuration and with
 * a saved skill (which invalidates them), so a minute-old copy is fresh.
 */
export const agentOptionsQuery = () =>
  queryOptions({
    queryKey: queryKeys.agentOptions(),
    queryFn: ({ signal }) => fetchAgentOptions(signal),
    staleTime: 60_000,
  });

/** useAgentOptions reads the agent options. */
export function useAgentOptions() {
  return useQuery(agentOptionsQuery());
}
