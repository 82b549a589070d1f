// Account deletion: marked now, purged after the 30-day undo window. Marking signs the user out
// everywhere (sessionVersion) and silences their tokens until they restore the account.
import { db } from '../db';
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
      throw new ApiError('workspaces_have_other_members', `you own workspaces with other members (${slugs.join(', ')}); remove them or delete those workspaces first`);
    }
    const now = new Date();
    // Nobody may join a workspace that is going away with its owner.
    await tx.invitation.deleteMany({ where: { workspaceId: { in: owned.map((m) => m.workspaceId) }, acceptedAt: null, declinedAt: null } });
    await tx.user.update({ where: { id: userId }, data: { deletionRequestedAt: now, sessionVersion: { increment: 1 } } });
    return { deletionRequestedAt: now.toISOString(), purgeAfter: new Date(now.getTime() + ACCOUNT_UNDO_WINDOW_MS).toISOString(), workspaces: owned.map((m) => m.workspace.slug) };
  });
}

export async function undeleteAccount(user: { id: string; deletionRequestedAt: Date | null }) {
  if (!user.deletionRequestedAt) return { restored: false, alreadyActive: true };
  if (Date.now() - user.deletionRequestedAt.getTime() > ACCOUNT_UNDO_WINDOW_MS) throw new ApiError('conflict', 'the 30-day window to restore this account has passed');
  await db.user.update({ where: { id: user.id }, data: { deletionRequestedAt: null } });
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
