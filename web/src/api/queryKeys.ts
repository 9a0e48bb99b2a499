// The keys of the server state react-query caches, in one place, so that a
// query and the writes that invalidate it cannot spell the key differently.

export const queryKeys = {
  /** GET /knowledge-agent/options: models, CLI profiles, compile defaults, limits */
  agentOptions: () => ["agent-options"] as const,
};
