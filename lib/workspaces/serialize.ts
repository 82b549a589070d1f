import type { Role } from '../db';
import type { z } from 'zod';
import type { member as memberAnswer } from '../openapi/resources/accounts';

export function workspaceRef(workspace: { id: string; slug: string; name: string }, role: Role) {
  return { id: workspace.id, slug: workspace.slug, name: workspace.name, role };
}

export function serializeMember(m: {
  id: string;
  userId: string;
  role: Role;
  joinedAt: Date;
  user: { name: string; email: string; image: string | null };
}): z.input<typeof memberAnswer> {
  return { id: m.id, userId: m.userId, role: m.role, joinedAt: m.joinedAt.toISOString(), name: m.user.name, email: m.user.email, image: m.user.image };
}

/** `paid` means a wallet balance above zero now (docs/api.md). */
export function accountState(workspace: { enterprise: boolean; balanceMillicents: bigint }): 'free' | 'paid' | 'enterprise' {
  if (workspace.enterprise) return 'enterprise';
  return workspace.balanceMillicents > 0n ? 'paid' : 'free';
}
