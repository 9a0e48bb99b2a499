// The keys of the server state react-query caches, in one place, so that a
// query and the writes that invalidate it cannot spell the key differently.
// Keys about one node carry its kb:// URI second: a rename or delete forgets
// every cached entry at or below the node by that part (forgetBelow).

export const queryKeys = {
  /** GET /knowledge-agent/options: models, CLI profiles, compile defaults, limits */
  agentOptions: () => ["agent-options"] as const,

  /** every folder listing; the tree's refresh button spins while any loads */
  listings: () => ["listing"] as const,
  /** one folder's children, every page loaded so far */
  listing: (uri: string) => ["listing", uri] as const,
  /** every loaded page of a file's text */
  content: (uri: string) => ["content", uri] as const,
  contentPage: (uri: string, offset: number) => ["content", uri, offset] as const,
  /** the few characters of a file's text at an offset a jump names (a PDF's page and passage) */
  contentAt: (uri: string, offset: number) => ["content", uri, "at", offset] as const,
  versions: (uri: string) => ["versions", uri] as const,
  trash: () => ["trash"] as const,
  shares: (uri: string) => ["shares", uri] as const,
  /** people and groups whose name starts with q */
  directory: (q: string) => ["directory", q] as const,

  /** the caller's jobs: compile, import, extraction */
  jobs: () => ["jobs"] as const,
  /** the raw files of a folder the compile form picks from */
  compileSources: (folder: string) => ["compile-files", folder] as const,
  /** a folder's "keep compiled" setting */
  autoCompile: (folder: string) => ["auto-compile", folder] as const,
  skills: () => ["skills"] as const,
  skill: (id: string | null) => ["skill", id] as const,

  /** every list of stored conversations */
  conversations: () => ["conversations"] as const,
  /** one folder's (scope "" for all folders) conversations matching q */
  conversationList: (scope: string, q: string) => ["conversations", scope, q] as const,
  conversationsSupport: () => ["conversations-support"] as const,

  myTokens: () => ["my-tokens"] as const,
  /** the folders the Connect an agent form offers */
  connectFolders: () => ["connect-folders"] as const,

  adminUsers: () => ["admin-users"] as const,
  adminTokens: () => ["admin-tokens"] as const,
  adminGroups: () => ["admin-groups"] as const,
  /** every filtered admin job list */
  adminJobs: () => ["admin-jobs"] as const,
  adminJobList: (state: string, userID: number) => ["admin-jobs", state, userID] as const,
  adminOverview: () => ["admin-overview"] as const,
  /** the audit log as filtered by user, action and days */
  adminAudit: (userID: number, action: string, from: string, to: string) => ["admin-audit", userID, action, from, to] as const,
  /** the caller's own sign-ins and token uses */
  myAudit: () => ["my-audit"] as const,
  /** the config's and the admin's models (GET /admin/models) */
  adminModels: () => ["admin-models"] as const,
};
