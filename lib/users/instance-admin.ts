// The instance operator (`isAdmin` in /v1/me): the addresses in ADMIN_EMAILS, or, when that is
// unset, the first account created on this installation.
import { db } from '../db';

// The first account only changes when it is deleted; a minute of staleness is harmless.
let firstUser: { id: string | undefined; at: number } | undefined;

export async function isInstanceAdmin(user: { id: string; email: string }): Promise<boolean> {
  const configured = process.env.ADMIN_EMAILS;
  if (configured) return configured.split(',').map((e) => e.trim().toLowerCase()).includes(user.email);
  if (!firstUser || Date.now() - firstUser.at > 60_000) {
    const first = await db.user.findFirst({ orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], select: { id: true } });
    firstUser = { id: first?.id, at: Date.now() };
  }
  return firstUser.id === user.id;
}
