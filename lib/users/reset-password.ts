// Password reset by e-mail. The request answers the same whatever the address (the route sends the
// mail after its response, so neither the body nor the time tells whether an account exists); the
// link is a one-time EmailToken (purpose "reset-password", SHA-256 stored) valid one hour, and a
// newer request deletes the older links. Completing it sets the password, signs out every session
// (sessionVersion), revokes the account tokens and clears the sign-in throttle of the address.
import { recordOperatorAction } from '../admin/actions';
import { db, Prisma } from '../db';
import { ApiError, invalidField } from '../api/errors';
import { hashPassword } from '../auth/password';
import { signInFailuresOf } from '../auth/sign-in-throttle';
import { hashSecret, newSecret } from '../crypto/secrets';
import { log } from '../log';
import { publicWebUrl, sendMail } from '../mail/mailer';
import { passwordChangedMail, passwordResetMail } from '../mail/templates';
import { hitBucket, windowStartOf } from '../rate-limit/buckets';
import { settings } from '../config/settings';

export const RESET_PURPOSE = 'reset-password';
/** A link made at the installation's shell (npm run reset-password): it proves no mailbox. */
export const SHELL_RESET_PURPOSE = 'reset-password-shell';
const RESET_PURPOSES = [RESET_PURPOSE, SHELL_RESET_PURPOSE];
export const RESET_TTL_MS = 3_600_000;
export const RESETS_PER_HOUR_PER_ADDRESS = 5;
const HOUR_MS = 3_600_000;

export const resetsPerHourPerIp = () => settings().passwordResetsPerHourPerIp;

/**
 * Counts a request against its client address and its e-mail address (whether or not an account
 * has it, so the answer cannot tell), and refuses it over either limit.
 */
export async function throttleResetRequest(email: string, ip: string, now = Date.now()): Promise<void> {
  const window = windowStartOf(now, HOUR_MS);
  const [byIp, byAddress] = await Promise.all([hitBucket(`password-reset-ip:${ip}`, window), hitBucket(`password-reset:${email}`, window)]);
  const retryAfter = { 'Retry-After': String(Math.max(1, Math.ceil((window.getTime() + HOUR_MS - now) / 1000))) };
  if (byIp > resetsPerHourPerIp()) throw new ApiError('rate_limited', 'too many password reset requests from this network; try again later', retryAfter);
  if (byAddress > RESETS_PER_HOUR_PER_ADDRESS) {
    throw new ApiError(
      'rate_limited',
      `at most ${RESETS_PER_HOUR_PER_ADDRESS} reset e-mails an hour for one address; check your inbox and spam folder`,
      retryAfter,
    );
  }
}

/**
 * Mails a reset link when an account has this address; otherwise does nothing. Runs after the
 * response, so it never throws: a failure is logged and the user can ask again.
 */
export async function sendPasswordResetMail(email: string): Promise<void> {
  try {
    const user = await db.user.findUnique({ where: { email }, select: { id: true, email: true, name: true } });
    if (!user) return;
    const link = await db.$transaction((tx) => issueResetLink(tx, user.id, RESET_PURPOSE));
    await sendMail(passwordResetMail(user.email, user.name, link));
  } catch (error) {
    log.error({ event: 'password-reset-mail-failed', err: (error as Error).message }, 'could not send a password reset link');
  }
}

/** A new one-time reset link (valid RESET_TTL_MS); the account's earlier unused links stop working. */
async function issueResetLink(tx: Prisma.TransactionClient, userId: string, purpose: string): Promise<string> {
  const secret = newSecret('pwr_');
  // Under the user's row lock, so two requests at once still leave one live link.
  await tx.$executeRaw`SELECT 1 FROM "User" WHERE "id" = ${userId} FOR UPDATE`;
  await tx.emailToken.deleteMany({ where: { userId, purpose: { in: RESET_PURPOSES }, usedAt: null } });
  await tx.emailToken.create({ data: { userId, purpose, tokenHash: secret.hash, expiresAt: new Date(Date.now() + RESET_TTL_MS) } });
  return `${publicWebUrl()}/reset-password?token=${encodeURIComponent(secret.plaintext)}`;
}

/**
 * For an install without a mail server (npm run reset-password): a reset link for the account,
 * printed at the shell instead of mailed, and written to the operator's audit log. Using it does
 * not mark the address verified, since no mail went through it.
 */
export async function shellResetLink(email: string): Promise<{ email: string; link: string }> {
  const user = await db.user.findUnique({ where: { email: email.trim().toLowerCase() }, select: { id: true, email: true } });
  if (!user) throw new Error(`no account has the address ${email.trim()}`);
  const link = await db.$transaction(async (tx) => {
    const issued = await issueResetLink(tx, user.id, SHELL_RESET_PURPOSE);
    await recordOperatorAction(tx, { actor: null, action: 'password_reset_link', targetLabel: user.email });
    return issued;
  });
  return { email: user.email, link };
}

const refused = (message: string) => invalidField('token', message);

export async function completePasswordReset(token: string, password: string): Promise<{ reset: true; user: { id: string; email: string; name: string } }> {
  const row = await db.emailToken.findUnique({ where: { tokenHash: hashSecret(token) } });
  if (!row || !RESET_PURPOSES.includes(row.purpose)) throw refused('this link is not valid, or a newer reset link replaced it; ask for a new one');
  if (row.usedAt) throw refused('this link was already used; ask for a new one to reset the password again');
  if (row.expiresAt.getTime() <= Date.now()) throw refused('this link has expired (reset links are valid for one hour); ask for a new one');

  // Hashed before the transaction opens (scrypt takes tens of milliseconds).
  const passwordHash = await hashPassword(password);
  const user = await db.$transaction(async (tx) => {
    const now = new Date();
    // The claim is the single-use check: of two completions at once, one updates the row.
    const claimed = await tx.emailToken.updateMany({ where: { id: row.id, usedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } });
    if (claimed.count === 0) throw refused('this link was already used; ask for a new one to reset the password again');
    const before = await tx.user.findUniqueOrThrow({ where: { id: row.userId }, select: { emailVerifiedAt: true } });
    const updated = await tx.user.update({
      where: { id: row.userId },
      // A mailed link reached the mailbox, which is what verification proves; a shell's did not.
      data: { passwordHash, sessionVersion: { increment: 1 }, emailVerifiedAt: before.emailVerifiedAt ?? (row.purpose === RESET_PURPOSE ? now : null) },
      select: { id: true, email: true, name: true },
    });
    await tx.emailToken.deleteMany({ where: { userId: row.userId, purpose: { in: RESET_PURPOSES }, usedAt: null } });
    // Whoever knew the old password could have made tokens from a dashboard session.
    await tx.accessToken.updateMany({ where: { userId: row.userId, revokedAt: null }, data: { revokedAt: now } });
    await tx.rateLimitBucket.deleteMany({ where: { key: signInFailuresOf(updated.email) } });
    return updated;
  });
  log.info({ event: 'password-reset', userId: user.id, from: row.purpose === RESET_PURPOSE ? 'mail' : 'shell' }, 'password reset with a one-time link');
  return { reset: true, user };
}

/** The notice after a reset or a change; runs after the response and never throws. */
export async function sendPasswordChangedMail(user: { email: string; name: string }, how: 'reset' | 'changed'): Promise<void> {
  try {
    await sendMail(passwordChangedMail(user.email, user.name, how, `${publicWebUrl()}/forgot-password`));
  } catch (error) {
    log.error({ event: 'password-changed-mail-failed', err: (error as Error).message }, 'could not send the password-changed notice');
  }
}
