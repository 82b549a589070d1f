import { db } from '../db';
import { ApiError, invalidField } from '../api/errors';
import { allowAttempt } from '../rate-limit/buckets';
import { hashSecret, newSecret } from '../crypto/secrets';
import { publicWebUrl, sendMail } from '../mail/mailer';
import { verificationMail } from '../mail/templates';

const VERIFY_TTL_MS = 24 * 3600 * 1000;

export async function sendVerificationMail(user: { id: string; email: string; name: string }) {
  const secret = newSecret('ver_');
  const row = await db.emailToken.create({
    data: { userId: user.id, purpose: 'verify-email', tokenHash: secret.hash, expiresAt: new Date(Date.now() + VERIFY_TTL_MS) },
  });
  const delivery = await sendMail(verificationMail(user.email, user.name, `${publicWebUrl()}/verify-email?token=${encodeURIComponent(secret.plaintext)}`));
  // Only a link that left by mail proves the address when opened; one read from the outbox does not.
  if (delivery === 'smtp') await db.emailToken.update({ where: { id: row.id }, data: { mailedAt: new Date() } });
}

export async function verifyEmail(token: string) {
  const row = await db.emailToken.findUnique({ where: { tokenHash: hashSecret(token) } });
  if (!row || row.purpose !== 'verify-email' || row.usedAt || row.expiresAt.getTime() <= Date.now()) {
    throw invalidField('token', 'this link is invalid or has expired; ask for a new one');
  }
  const now = new Date();
  await db.$transaction(async (tx) => {
    // Once: of two uses at the same moment, the second finds it spent.
    const spent = await tx.emailToken.updateMany({ where: { id: row.id, usedAt: null }, data: { usedAt: now } });
    if (spent.count !== 1) throw invalidField('token', 'this link is invalid or has expired; ask for a new one');
    await tx.user.update({ where: { id: row.userId }, data: { emailVerifiedAt: now, ...(row.mailedAt ? { emailProvenAt: now } : {}) } });
  });
  return { verified: true };
}

export const RESENDS_PER_HOUR = 5;

export async function resendVerification(user: { id: string; email: string; name: string; emailVerifiedAt: Date | null }) {
  if (user.emailVerifiedAt) return { alreadyVerified: true };
  // Nobody may use this to flood a mailbox (the address is not proven yet).
  if (!(await allowAttempt(`verify-resend:${user.id}`, RESENDS_PER_HOUR, 3_600_000))) {
    throw new ApiError('rate_limited', `at most ${RESENDS_PER_HOUR} verification e-mails an hour; check your spam folder`, { 'Retry-After': '3600' });
  }
  await sendVerificationMail(user);
  return { sent: true };
}
