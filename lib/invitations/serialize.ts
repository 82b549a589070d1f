import type { Role } from '../db';
import type { z } from 'zod';
import type { invitation as invitationAnswer } from '../openapi/resources/accounts';

export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;

export function serializeInvitation(inv: {
  id: string;
  email: string;
  role: Role;
  expiresAt: Date;
  createdAt: Date;
  invitedBy: { name: string };
}): z.input<typeof invitationAnswer> {
  return {
    id: inv.id,
    email: inv.email,
    role: inv.role,
    expiresAt: inv.expiresAt.toISOString(),
    createdAt: inv.createdAt.toISOString(),
    invitedByName: inv.invitedBy.name,
  };
}
