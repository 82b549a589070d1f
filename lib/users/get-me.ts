import { db } from '../db';
import type { AuthUser, AuthVia, ResolvedWorkspace } from '../api/context';
import { accountState } from '../workspaces/serialize';
import { listWorkspaces } from '../workspaces/workspaces';
import { isInstanceAdmin } from './instance-admin';
import type { z } from 'zod';
import type { user as userAnswer } from '../openapi/resources/accounts';

export function serializeUser(user: Pick<AuthUser, 'id' | 'email' | 'name' | 'emailVerifiedAt' | 'image'>): z.input<typeof userAnswer> {
  return { id: user.id, email: user.email, name: user.name, emailVerified: user.emailVerifiedAt !== null, image: user.image };
}

export async function getMe(user: AuthUser, via: AuthVia, workspace: ResolvedWorkspace | null) {
  const [workspaces, routers, isAdmin] = await Promise.all([
    listWorkspaces(user.id),
    workspace
      ? db.router.findMany({
          where: { workspaceId: workspace.id },
          orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
          select: { id: true, slug: true, name: true },
        })
      : [],
    isInstanceAdmin(user),
  ]);
  // Same rule as the wrapper's router resolution, on the list already read.
  const activeRouter = (via === 'cookie' && routers.find((r) => r.id === user.activeRouterId)) || routers[0] || null;
  return {
    user: serializeUser(user),
    workspaces,
    activeWorkspaceId: workspace?.id ?? null,
    activeWorkspacePlan: workspace?.plan ?? null,
    activeWorkspaceAccountState: workspace ? accountState(workspace) : null,
    routers,
    activeRouterInstanceId: activeRouter?.id ?? null,
    isAdmin,
    deletionScheduledAt: user.deletionRequestedAt ? new Date(user.deletionRequestedAt.getTime() + ACCOUNT_UNDO_WINDOW_MS).toISOString() : null,
  };
}

export const ACCOUNT_UNDO_WINDOW_MS = 30 * 24 * 3600 * 1000;
