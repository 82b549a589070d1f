// Steps 2 and 3 of the wrapper: the workspace (X-Workspace-Id, else the dashboard's active one
// for cookie sessions, else the user's oldest membership) and the router (X-Router-Id or
// routerInstanceId, else the dashboard's active one, else the workspace's first router).
import { db } from '../db';
import { ApiError, notFound } from './errors';
import type { AuthUser, AuthVia, ResolvedRouter, ResolvedWorkspace } from './context';

const membershipSelect = {
  role: true,
  workspace: {
    select: {
      id: true,
      slug: true,
      name: true,
      plan: true,
      enterprise: true,
      suspended: true,
      dailyCapOverride: true,
      wallet: { select: { balanceMillicents: true } },
    },
  },
} as const;

type MembershipRow = {
  role: ResolvedWorkspace['role'];
  workspace: Omit<ResolvedWorkspace, 'role' | 'balanceMillicents'> & { wallet: { balanceMillicents: bigint } | null };
};

function toResolved(row: MembershipRow): ResolvedWorkspace {
  const { wallet, ...workspace } = row.workspace;
  return { ...workspace, role: row.role, balanceMillicents: wallet?.balanceMillicents ?? 0n };
}

export async function resolveWorkspace(user: AuthUser, via: AuthVia, requested: string | null): Promise<ResolvedWorkspace | null> {
  if (requested) {
    const row = await db.membership.findUnique({ where: { workspaceId_userId: { workspaceId: requested, userId: user.id } }, select: membershipSelect });
    if (!row) throw new ApiError('not_a_member', 'you are not a member of the workspace in X-Workspace-Id');
    return toResolved(row);
  }
  if (via === 'cookie' && user.activeWorkspaceId) {
    const row = await db.membership.findUnique({
      where: { workspaceId_userId: { workspaceId: user.activeWorkspaceId, userId: user.id } },
      select: membershipSelect,
    });
    if (row) return toResolved(row);
  }
  const first = await db.membership.findFirst({ where: { userId: user.id }, orderBy: [{ joinedAt: 'asc' }, { id: 'asc' }], select: membershipSelect });
  return first ? toResolved(first) : null;
}

export async function resolveRouter(workspace: ResolvedWorkspace, user: AuthUser, via: AuthVia, requested: string | null): Promise<ResolvedRouter> {
  const select = { id: true, slug: true, name: true } as const;
  if (requested) {
    const router = await db.router.findFirst({ where: { id: requested, workspaceId: workspace.id }, select });
    if (!router) throw notFound('router');
    return router;
  }
  if (via === 'cookie' && user.activeRouterId) {
    const router = await db.router.findFirst({ where: { id: user.activeRouterId, workspaceId: workspace.id }, select });
    if (router) return router;
  }
  const first = await db.router.findFirst({ where: { workspaceId: workspace.id }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], select });
  if (!first) throw notFound('router');
  return first;
}
