// Account deletion: marked now, purged after the 30-day undo window. Marking signs the user out
// everywhere (sessionVersion) and silences their tokens until they restore the account. The
// workspaces it owns are marked too: their router keys stop working (402, like a suspended
// workspace) and their live sessions are closed; undelete lifts both marks.
import { db } from '../db';
import { notifyAccessRevoked } from '../sessions/notify';
import { ApiError } from '../api/errors';
import { log } from '../log';
import { ACCOUNT_UNDO_WINDOW_MS } from './get-me';

export async function requestAccountDeletion(userId: string) {
  return db.$transaction(async (tx) => {
    const owned = await tx.membership.findMany({ where: { userId, role: 'owner' }, select: { workspaceId: true, workspace: { select: { slug: true } } } });
    const shared = await tx.membership.groupBy({
      by: ['workspaceId'],
      where: { workspaceId: { in: owned.map((m) => m.workspaceId) }, userId: { not: userId } },
    });
    if (shared.length > 0) {
      const slugs = owned.filter((m) => shared.some((s) => s.workspaceId === m.workspaceId)).map((m) => m.workspace.slug);
      throw new ApiError(
        'workspaces_have_other_members',
        `you own workspaces with other members (${slugs.join(', ')}); remove them or delete those workspaces first`,
      );
    }
    const now = new Date();
    // Nobody may join a workspace that is going away with its owner.
    await tx.invitation.deleteMany({ where: { workspaceId: { in: owned.map((m) => m.workspaceId) }, acceptedAt: null, declinedAt: null } });
    await tx.user.update({ where: { id: userId }, data: { deletionRequestedAt: now, sessionVersion: { increment: 1 } } });
    const workspaceIds = owned.map((m) => m.workspaceId);
    await tx.workspace.updateMany({ where: { id: { in: workspaceIds } }, data: { deletionRequestedAt: now } });
    await notifyAccessRevoked(tx, { cause: 'workspace_deletion', workspaceIds });
    return {
      deletionRequestedAt: now.toISOString(),
      purgeAfter: new Date(now.getTime() + ACCOUNT_UNDO_WINDOW_MS).toISOString(),
      workspaces: owned.map((m) => m.workspace.slug),
    };
  });
}

export async function undeleteAccount(user: { id: string; deletionRequestedAt: Date | null }) {
  if (!user.deletionRequestedAt) return { restored: false, alreadyActive: true };
  if (Date.now() - user.deletionRequestedAt.getTime() > ACCOUNT_UNDO_WINDOW_MS)
    throw new ApiError('conflict', 'the 30-day window to restore this account has passed');
  await db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { deletionRequestedAt: null } });
    const restored = await tx.$queryRaw<{ id: string }[]>`
      UPDATE "Workspace" w SET "deletionRequestedAt" = NULL
      FROM "Membership" m
      WHERE m."workspaceId" = w."id" AND m."userId" = ${user.id} AND m."role" = 'owner' AND w."deletionRequestedAt" IS NOT NULL
      RETURNING w."id"`;
    await notifyAccessRevoked(tx, { cause: 'workspaces_restored', workspaceIds: restored.map((w) => w.id) });
  });
  return { restored: true };
}

/** Removes accounts whose undo window has passed, with the workspaces they owned. */
export async function purgeDeletedAccounts(now = Date.now()): Promise<number> {
  const due = await db.user.findMany({ where: { deletionRequestedAt: { lte: new Date(now - ACCOUNT_UNDO_WINDOW_MS) } }, select: { id: true } });
  for (const { id } of due) {
    await db.$transaction(async (tx) => {
      const owned = await tx.membership.findMany({ where: { userId: id, role: 'owner' }, select: { workspaceId: true } });
      await tx.workspace.deleteMany({ where: { id: { in: owned.map((m) => m.workspaceId) } } });
      await tx.user.delete({ where: { id } });
    });
  }
  if (due.length > 0) log.info({ event: 'accounts-purged', count: due.length }, 'purged deleted accounts');
  return due.length;
}
