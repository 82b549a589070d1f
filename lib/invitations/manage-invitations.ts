// The inviting side: list, invite, resend, cancel. The link carries a secret whose SHA-256 is kept.
// Without a mail server the mail is kept in the Outbox for the invitee and for whoever sent it (the
// inviter, or who resent it), who may pass the link on.
import { db } from '../db';
import { ApiError, notFound } from '../api/errors';
import type { ResolvedWorkspace } from '../api/context';
import { newSecret } from '../crypto/secrets';
import { allowAttempt } from '../rate-limit/buckets';
import { sendMail, publicWebUrl } from '../mail/mailer';
import { invitationMail } from '../mail/templates';
import { MEMBERS_PER_WORKSPACE } from '../workspaces/limits';
import { INVITATION_TTL_MS, serializeInvitation } from './serialize';

const INVITE_PREFIX = 'inv_';
const pending = { acceptedAt: null, declinedAt: null } as const;

export async function listInvitations(workspaceId: string) {
  const invitations = await db.invitation.findMany({
    where: { workspaceId, ...pending },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    include: { invitedBy: { select: { name: true } } },
  });
  return { items: invitations.map(serializeInvitation), total: invitations.length };
}

export async function createInvitation(
  workspace: ResolvedWorkspace,
  inviter: { id: string; name: string },
  input: { email: string; role: 'admin' | 'member' },
) {
  const secret = newSecret(INVITE_PREFIX);
  const invitation = await db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM "Workspace" WHERE "id" = ${workspace.id} FOR UPDATE`;
    const members = await tx.membership.count({ where: { workspaceId: workspace.id } });
    if (members >= MEMBERS_PER_WORKSPACE) throw new ApiError('fair_use_limit_reached', `a workspace can have at most ${MEMBERS_PER_WORKSPACE} members`);
    const existingMember = await tx.membership.findFirst({ where: { workspaceId: workspace.id, user: { email: input.email } } });
    if (existingMember) throw new ApiError('conflict', `${input.email} is already a member`);
    const existing = await tx.invitation.findFirst({ where: { workspaceId: workspace.id, email: input.email, ...pending } });
    if (existing) throw new ApiError('conflict', `${input.email} already has a pending invitation; resend it instead`);
    return tx.invitation.create({
      data: {
        workspaceId: workspace.id,
        email: input.email,
        role: input.role,
        tokenHash: secret.hash,
        invitedById: inviter.id,
        expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
      },
      include: { invitedBy: { select: { name: true } } },
    });
  });
  const delivery = await sendInvitationMail(
    inviter.id,
    { email: input.email, inviter: inviter.name, workspace: workspace.name, role: input.role },
    secret.plaintext,
  );
  return { ...serializeInvitation(invitation), delivery };
}

async function getPendingOrThrow(workspaceId: string, id: string) {
  const invitation = await db.invitation.findFirst({ where: { id, workspaceId, ...pending } });
  if (!invitation) throw notFound('invitation');
  return invitation;
}

export const INVITATION_RESENDS_PER_HOUR = 5;

/** `resender`: the owner or admin who asked, who can read the kept mail when there is no mail server. */
export async function resendInvitation(workspace: ResolvedWorkspace, id: string, resender: { id: string }) {
  await getPendingOrThrow(workspace.id, id);
  if (!(await allowAttempt(`invite-resend:${id}`, INVITATION_RESENDS_PER_HOUR, 3_600_000))) {
    throw new ApiError('rate_limited', `an invitation can be re-sent at most ${INVITATION_RESENDS_PER_HOUR} times an hour`, { 'Retry-After': '3600' });
  }
  const secret = newSecret(INVITE_PREFIX);
  // A new link replaces the old one, which stops working.
  const invitation = await db.invitation.update({
    where: { id },
    data: { tokenHash: secret.hash, expiresAt: new Date(Date.now() + INVITATION_TTL_MS) },
    include: { invitedBy: { select: { name: true } } },
  });
  const delivery = await sendInvitationMail(
    resender.id,
    { email: invitation.email, inviter: invitation.invitedBy.name, workspace: workspace.name, role: invitation.role },
    secret.plaintext,
  );
  return { ...serializeInvitation(invitation), delivery };
}

export async function cancelInvitation(workspaceId: string, id: string) {
  await getPendingOrThrow(workspaceId, id);
  await db.invitation.delete({ where: { id } });
  return { id, cancelled: true };
}

/** `senderUserId` may read the mail in the Outbox besides the invitee (only invitations set a sender). */
async function sendInvitationMail(senderUserId: string, to: { email: string; inviter: string; workspace: string; role: string }, token: string) {
  const link = `${publicWebUrl()}/invite/${encodeURIComponent(token)}`;
  return sendMail(invitationMail(to.email, to.inviter, to.workspace, to.role, link), { senderUserId });
}
