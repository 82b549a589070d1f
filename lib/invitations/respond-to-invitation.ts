// The invited side: look the link up, accept or decline it. Accept and decline need a signed-in
// user whose e-mail is the invited one.
import { db } from '../db';
import { ApiError, forbidden, notFound } from '../api/errors';
import type { AuthUser } from '../api/context';
import { hashSecret } from '../crypto/secrets';
import { MEMBERS_PER_WORKSPACE } from '../workspaces/limits';
import { workspaceRef } from '../workspaces/serialize';

async function findByToken(token: string) {
  const invitation = await db.invitation.findUnique({
    where: { tokenHash: hashSecret(token) },
    include: { workspace: { select: { id: true, slug: true, name: true } }, invitedBy: { select: { name: true } } },
  });
  if (!invitation || invitation.acceptedAt || invitation.declinedAt) throw notFound('invitation');
  return invitation;
}

export async function lookupInvitation(token: string) {
  const inv = await findByToken(token);
  return {
    workspaceName: inv.workspace.name,
    workspaceSlug: inv.workspace.slug,
    inviterName: inv.invitedBy.name,
    email: inv.email,
    role: inv.role,
    expiresAt: inv.expiresAt.toISOString(),
    expired: inv.expiresAt.getTime() <= Date.now(),
  };
}

async function findForUser(token: string, user: AuthUser) {
  const invitation = await findByToken(token);
  if (invitation.email !== user.email) throw forbidden(`this invitation was sent to another e-mail address; sign in as ${invitation.email}`);
  if (invitation.expiresAt.getTime() <= Date.now()) throw new ApiError('invitation_expired', 'this invitation has expired; ask for a new one');
  return invitation;
}

export async function acceptInvitation(token: string, user: AuthUser) {
  const invitation = await findForUser(token, user);
  const membership = await db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM "Workspace" WHERE "id" = ${invitation.workspaceId} FOR UPDATE`;
    const existing = await tx.membership.findUnique({ where: { workspaceId_userId: { workspaceId: invitation.workspaceId, userId: user.id } } });
    if (!existing && (await tx.membership.count({ where: { workspaceId: invitation.workspaceId } })) >= MEMBERS_PER_WORKSPACE) {
      throw new ApiError('fair_use_limit_reached', `the workspace already has ${MEMBERS_PER_WORKSPACE} members`);
    }
    await tx.invitation.update({ where: { id: invitation.id }, data: { acceptedAt: new Date() } });
    // The link reached this mailbox, which proves the address as well as a verification link would.
    await tx.user.update({
      where: { id: user.id },
      data: { activeWorkspaceId: invitation.workspaceId, activeRouterId: null, emailVerifiedAt: user.emailVerifiedAt ?? new Date() },
    });
    return existing ?? tx.membership.create({ data: { workspaceId: invitation.workspaceId, userId: user.id, role: invitation.role } });
  });
  return { workspace: workspaceRef(invitation.workspace, membership.role), accepted: true };
}

export async function declineInvitation(token: string, user: AuthUser) {
  const invitation = await findForUser(token, user);
  await db.invitation.update({ where: { id: invitation.id }, data: { declinedAt: new Date() } });
  return { id: invitation.id, declined: true };
}
