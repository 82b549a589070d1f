// The inviting side: list, invite, resend, cancel. The link carries a secret whose SHA-256 is kept.
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

export async function createInvitation(workspace: ResolvedWorkspace, inviter: { id: string; name: string }, input: { email: string; role: 'admin' | 'member' }) {
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
      data: { workspaceId: workspace.id, email: input.email, role: input.role, tokenHash: secret.hash, invitedById: inviter.id, expiresAt: new Date(Date.now() + INVITATION_TTL_MS) },
      include: { invitedBy: { select: { name: true } } },
    });
  });
  const delivery = await sendInvitationMail(input.email, inviter.name, workspace.name, input.role, secret.plaintext);
  return { ...serializeInvitation(invitation), delivery };
}

async function getPendingOrThrow(workspaceId: string, id: string) {
  const invitation = await db.invitation.findFirst({ where: { id, workspaceId, ...pending } });
  if (!invitation) throw notFound('invitation');
  return invitation;
}

export const INVITATION_RESENDS_PER_HOUR = 5;

export async function resendInvitation(workspace: ResolvedWorkspace, id: string) {
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
  const delivery = await sendInvitationMail(invitation.email, invitation.invitedBy.name, workspace.name, invitation.role, secret.plaintext);
  return { ...serializeInvitation(invitation), delivery };
}

export async function cancelInvitation(workspaceId: string, id: string) {
  await getPendingOrThrow(workspaceId, id);
  await db.invitation.delete({ where: { id } });
  return { id, cancelled: true };
}

async function sendInvitationMail(email: string, inviter: string, workspace: string, role: string, token: string) {
  return sendMail(invitationMail(email, inviter, workspace, role, `${publicWebUrl()}/invite/${encodeURIComponent(token)}`));
}
