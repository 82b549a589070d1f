// What a signed-in user changes about themselves on the Account page: their name, and their
// password (the current one required). A password change signs out every other session: the
// session version moves, and the route hands the caller a cookie at the new version.
import { db } from '../db';
import { ApiError, invalidField } from '../api/errors';
import { SIGN_IN_FAILURES_PER_EMAIL, SIGN_IN_WINDOW_MS, signInFailuresOf } from '../auth/sign-in-throttle';
import { hashPassword, verifyPassword } from '../auth/password';
import { hitBucket, readBucket, windowStartOf } from '../rate-limit/buckets';
import { serializeUser } from './get-me';
import { RESET_PURPOSE } from './reset-password';

export async function updateAccountName(userId: string, name: string) {
  const user = await db.user.update({
    where: { id: userId },
    data: { name },
    select: { id: true, email: true, name: true, image: true, emailVerifiedAt: true },
  });
  return { user: serializeUser(user) };
}

export async function changePassword(userId: string, input: { currentPassword: string; newPassword: string }) {
  const user = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, name: true, passwordHash: true } });
  // A stolen session must not be a way around the sign-in throttle: wrong current passwords
  // count as failed sign-ins of the address.
  const now = Date.now();
  const window = windowStartOf(now, SIGN_IN_WINDOW_MS);
  const bucket = signInFailuresOf(user.email);
  if ((await readBucket(bucket, window)) >= SIGN_IN_FAILURES_PER_EMAIL) {
    const retryAfter = String(Math.max(1, Math.ceil((window.getTime() + SIGN_IN_WINDOW_MS - now) / 1000)));
    throw new ApiError('rate_limited', 'too many wrong passwords; wait 15 minutes and try again', { 'Retry-After': retryAfter });
  }
  if (!(await verifyPassword(input.currentPassword, user.passwordHash))) {
    await hitBucket(bucket, window);
    throw invalidField('currentPassword', 'the current password is not correct');
  }
  const passwordHash = await hashPassword(input.newPassword);
  const updated = await db.$transaction(async (tx) => {
    const row = await tx.user.update({ where: { id: userId }, data: { passwordHash, sessionVersion: { increment: 1 } }, select: { sessionVersion: true } });
    // A reset link asked for earlier would otherwise still set another password.
    await tx.emailToken.deleteMany({ where: { userId, purpose: RESET_PURPOSE, usedAt: null } });
    return row;
  });
  return { sessionVersion: updated.sessionVersion, user: { email: user.email, name: user.name } };
}
