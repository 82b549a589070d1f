// Workspace membership: list, switch, leave, remove a member, delete the workspace.
import { db } from '../db';
import { ApiError, forbidden, notFound, invalidField } from '../api/errors';
import type { ResolvedWorkspace } from '../api/context';
import { createWorkspace } from './create-workspace';
import { serializeMember, workspaceRef } from './serialize';

export async function listWorkspaces(userId: string) {
  const memberships = await db.membership.findMany({
    where: { userId },
    orderBy: [{ joinedAt: 'asc' }, { id: 'asc' }],
    select: { role: true, workspace: { select: { id: true, slug: true, name: true } } },
  });
  return memberships.map((m) => workspaceRef(m.workspace, m.role));
}

export async function createOwnWorkspace(userId: string, name: string) {
  const { workspace } = await db.$transaction((tx) => createWorkspace(tx, { ownerId: userId, name }));
  await db.user.update({ where: { id: userId }, data: { activeWorkspaceId: workspace.id, activeRouterId: null } });
  return workspaceRef(workspace, 'owner');
}

export async function setActiveWorkspace(userId: string, workspaceId: string) {
  const membership = await db.membership.findUnique({ where: { workspaceId_userId: { workspaceId, userId } } });
  if (!membership) throw new ApiError('not_a_member', 'you are not a member of that workspace');
  await db.user.update({ where: { id: userId }, data: { activeWorkspaceId: workspaceId, activeRouterId: null } });
  return { activeWorkspaceId: workspaceId };
}

export async function listMembers(workspaceId: string) {
  const members = await db.membership.findMany({
    where: { workspaceId },
    orderBy: [{ joinedAt: 'asc' }, { id: 'asc' }],
    include: { user: { select: { name: true, email: true, image: true } } },
  });
  return { items: members.map(serializeMember), total: members.length };
}

export async function leaveWorkspace(userId: string, workspace: ResolvedWorkspace) {
  if (workspace.role === 'owner') throw forbidden('the owner cannot leave the workspace; delete it instead');
  await db.membership.delete({ where: { workspaceId_userId: { workspaceId: workspace.id, userId } } });
  await db.user.updateMany({ where: { id: userId, activeWorkspaceId: workspace.id }, data: { activeWorkspaceId: null, activeRouterId: null } });
  return { workspaceId: workspace.id, left: true };
}

export async function removeMember(workspace: ResolvedWorkspace, actorId: string, userId: string) {
  const member = await db.membership.findUnique({ where: { workspaceId_userId: { workspaceId: workspace.id, userId } } });
  if (!member) throw notFound('member');
  if (member.role === 'owner') throw forbidden('the owner cannot be removed');
  if (member.userId === actorId) throw forbidden('use leave to remove yourself');
  await db.membership.delete({ where: { id: member.id } });
  await db.user.updateMany({ where: { id: userId, activeWorkspaceId: workspace.id }, data: { activeWorkspaceId: null, activeRouterId: null } });
  return { userId, removed: true };
}

export async function deleteWorkspace(workspace: ResolvedWorkspace, confirm: string) {
  if (confirm !== workspace.slug) throw invalidField('confirm', `type the workspace slug "${workspace.slug}" to delete it`);
  // Cascades to routers, providers, keys, profiles, sessions, recordings, traces, webhooks, wallet.
  await db.workspace.delete({ where: { id: workspace.id } });
  return { id: workspace.id, slug: workspace.slug, deleted: true };
}
