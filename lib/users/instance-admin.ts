// The instance operator (`isAdmin` in /v1/me) is an account the installer made operator: through
// the one-time claim link `npm start` prints while the installation has none, or with
// `npm run operator -- --email <address>` (lib/admin/operator-rights.ts); or an account whose
// address is in ADMIN_EMAILS and proven: verified with a link that went out by mail (SMTP), not
// one read from the outbox, which anyone who signed up with the address could read. Signing up
// first, or with an ADMIN_EMAILS address, grants nothing (docs/security.md, "The operator").
import { db, Prisma } from '../db';
import { settings } from '../config/settings';

/** The addresses of ADMIN_EMAILS, lower-cased. */
export function adminEmails(): string[] {
  return [...settings().adminEmails];
}

/** Accounts that are the operator: granted by the installer, or an ADMIN_EMAILS address proven by mail. */
export function operatorWhere(): Prisma.UserWhereInput {
  const configured = adminEmails();
  return {
    deletionRequestedAt: null,
    OR: [{ operatorSince: { not: null } }, ...(configured.length > 0 ? [{ email: { in: configured }, emailProvenAt: { not: null } }] : [])],
  };
}

/** Read on every call: a right taken away from the shell holds from the next request. */
export async function isInstanceAdmin(user: { id: string }): Promise<boolean> {
  return (await db.user.count({ where: { id: user.id, ...operatorWhere() } })) > 0;
}

/** Whether the installation has an operator yet (`npm start` prints a claim link while it has none). */
export async function hasOperator(): Promise<boolean> {
  return (await db.user.count({ where: operatorWhere() })) > 0;
}
