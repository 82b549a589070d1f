// Every query key in one place. Workspace-scoped resources carry the workspace id, so switching
// workspace never shows one workspace's rows under another's name.
export const queryKeys = {
  me: ['me'] as const,
  workspaces: ['workspaces'] as const,
  accessTokens: ['access-tokens'] as const,
  outbox: ['outbox'] as const,
  invitationLookup: (token: string) => ['invitation-lookup', token] as const,
  workspace: (workspaceId: string | null | undefined) => ['workspace', workspaceId ?? 'none'] as const,
  members: (workspaceId: string | null | undefined) => ['workspace', workspaceId ?? 'none', 'members'] as const,
  invitations: (workspaceId: string | null | undefined) => ['workspace', workspaceId ?? 'none', 'invitations'] as const,
  webhooks: (workspaceId: string | null | undefined) => ['workspace', workspaceId ?? 'none', 'webhooks'] as const,
  webhookDeliveries: (workspaceId: string | null | undefined, webhookId: string) =>
    ['workspace', workspaceId ?? 'none', 'webhooks', webhookId, 'deliveries'] as const,
  routers: (workspaceId: string | null | undefined) => ['workspace', workspaceId ?? 'none', 'routers'] as const,
  /** Everything about one router (the router row, settings, providers, keys, chat link, live status) sits under this prefix. */
  router: (workspaceId: string | null | undefined, routerId: string) => ['workspace', workspaceId ?? 'none', 'router', routerId] as const,
  routerPart: (workspaceId: string | null | undefined, routerId: string, part: 'settings' | 'agent-settings' | 'providers' | 'keys' | 'chat-link' | 'status') =>
    ['workspace', workspaceId ?? 'none', 'router', routerId, part] as const,
  sessions: (workspaceId: string | null | undefined) => ['workspace', workspaceId ?? 'none', 'sessions'] as const,
  sessionList: (workspaceId: string | null | undefined, filters: object) => ['workspace', workspaceId ?? 'none', 'sessions', 'list', filters] as const,
  sessionsPerDay: (workspaceId: string | null | undefined, filters: object) => ['workspace', workspaceId ?? 'none', 'sessions', 'per-day', filters] as const,
  session: (workspaceId: string | null | undefined, id: string) => ['workspace', workspaceId ?? 'none', 'sessions', 'one', id] as const,
  /** Profiles: without `part`, the prefix of every profile query of the workspace (list, pickers, one, versions). */
  profiles: (workspaceId: string | null | undefined, part?: 'list' | 'all' | 'one' | 'versions', params?: object) =>
    ['workspace', workspaceId ?? 'none', 'profiles', ...(part ? [part] : []), ...(params ? [params] : [])] as const,
  /** Recordings: without `part`, the prefix of every recording query of the workspace (list, one, manifest, summary, chunks). */
  recordings: (workspaceId: string | null | undefined, part?: 'list' | 'one' | 'manifest' | 'summary' | 'chunk', params?: object) =>
    ['workspace', workspaceId ?? 'none', 'recordings', ...(part ? [part] : []), ...(params ? [params] : [])] as const,
  /** The overview's figures (GET /v1/overview); under the workspace, so any workspace-wide refresh includes it. */
  overview: (workspaceId: string | null | undefined, params: { days: number }) => ['workspace', workspaceId ?? 'none', 'overview', params] as const,
  /** The wallet: without `part`, the prefix of every billing query of the workspace. */
  billing: (workspaceId: string | null | undefined, part?: 'summary' | 'usage' | 'ledger' | 'transactions' | 'transaction', params?: object) =>
    ['workspace', workspaceId ?? 'none', 'billing', ...(part ? [part] : []), ...(params ? [params] : [])] as const,
  /** The operator's workspace search (any workspace of the installation); without `q`, the prefix. */
  adminWorkspaces: (q?: string) => ['admin-workspaces', ...(q === undefined ? [] : [q])] as const,
  adminActions: ['admin-actions'] as const,
};
