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
  webhookDeliveries: (workspaceId: string | null | undefined, webhookId: string) => ['workspace', workspaceId ?? 'none', 'webhooks', webhookId, 'deliveries'] as const,
};
