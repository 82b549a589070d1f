import { db } from '../db';
import { ApiError, invalidField } from '../api/errors';
import { allowAttempt } from '../rate-limit/buckets';
import { hashSecret, newSecret } from '../crypto/secrets';
import { publicWebUrl, sendMail } from '../mail/mailer';
import { verificationMail } from '../mail/templates';

const VERIFY_TTL_MS = 24 * 3600 * 1000;

export async function sendVerificationMail(user: { id: string; email: string; name: string }) {
  const secret = newSecret('ver_');
  await db.emailToken.create({ data: { userId: user.id, purpose: 'verify-email', tokenHash: secret.hash, expiresAt: new Date(Date.now() + VERIFY_TTL_MS) } });
  await sendMail(verificationMail(user.email, user.name, `${publicWebUrl()}/verify-email?token=${encodeURIComponent(secret.plaintext)}`));
}

export async function verifyEmail(token: string) {
  const row = await db.emailToken.findUnique({ where: { tokenHash: hashSecret(token) } });
  if (!row || row.purpose !== 'verify-email' || row.usedAt || row.expiresAt.getTime() <= Date.now()) {
    throw invalidField('token', 'this link is invalid or has expired; ask for a new one');
  }
  const now = new Date();
  await db.$transaction([
    db.emailToken.update({ where: { id: row.id }, data: { usedAt: now } }),
    db.user.update({ where: { id: row.userId }, data: { emailVerifiedAt: now } }),
  ]);
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
