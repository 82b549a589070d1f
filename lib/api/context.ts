// What the wrapper resolves before a handler runs: who is calling, through which credential,
// in which workspace and router, with which role.
import type { Role } from '../db';

export interface AuthUser {
  id: string;
  email: string;
  name: string;
  image: string | null;
  emailVerifiedAt: Date | null;
  activeWorkspaceId: string | null;
  activeRouterId: string | null;
  deletionRequestedAt: Date | null;
  createdAt: Date;
}

export type AuthVia = 'bearer' | 'cookie';

export interface ResolvedWorkspace {
  id: string;
  slug: string;
  name: string;
  plan: string;
  enterprise: boolean;
  suspended: boolean;
  dailyCapOverride: number | null;
  balanceMillicents: bigint;
  role: Role;
}

export interface ResolvedRouter {
  id: string;
  slug: string;
  name: string;
}

const rank: Record<Role, number> = { member: 0, admin: 1, owner: 2 };

export function roleAtLeast(role: Role, needed: Role): boolean {
  return rank[role] >= rank[needed];
}
