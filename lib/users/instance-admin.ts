// The instance operator (`isAdmin` in /v1/me): the addresses in ADMIN_EMAILS, or, when that is
// unset, the first account created on this installation.
import { db } from '../db';

export async function isInstanceAdmin(user: { id: string; email: string }): Promise<boolean> {
  const configured = process.env.ADMIN_EMAILS;
  if (configured) return configured.split(',').map((e) => e.trim().toLowerCase()).includes(user.email);
  const first = await db.user.findFirst({ orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], select: { id: true } });
  return first?.id === user.id;
}
