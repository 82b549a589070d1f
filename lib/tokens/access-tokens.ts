// Account tokens (acct_…): belong to a user, act with the user's role in each workspace.
import { db } from '../db';
import { newSecret } from '../crypto/secrets';
import { ApiError, notFound } from '../api/errors';
import { ACCOUNT_TOKEN_PREFIX } from '../api/authenticate';
import { ACTIVE_TOKEN_CAP, serializeAccessToken } from './serialize';

export async function listAccessTokens(userId: string) {
  const tokens = await db.accessToken.findMany({ where: { userId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
  return { items: tokens.map(serializeAccessToken), total: tokens.length, cap: ACTIVE_TOKEN_CAP };
}

export async function createAccessToken(userId: string, label: string) {
  const secret = newSecret(ACCOUNT_TOKEN_PREFIX);
  // The cap check and the insert run under a row lock on the user, so two requests cannot both pass.
  const token = await db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM "User" WHERE "id" = ${userId} FOR UPDATE`;
    const active = await tx.accessToken.count({ where: { userId, revokedAt: null } });
    if (active >= ACTIVE_TOKEN_CAP) {
      throw new ApiError('limit_reached', `you already hold ${ACTIVE_TOKEN_CAP} active tokens; revoke or delete one first`);
    }
    return tx.accessToken.create({ data: { userId, label, prefix: secret.prefix, tokenHash: secret.hash } });
  });
  return { ...serializeAccessToken(token), plaintextToken: secret.plaintext };
}

async function getOwnTokenOrThrow(userId: string, id: string) {
  const token = await db.accessToken.findFirst({ where: { id, userId } });
  if (!token) throw notFound('access token');
  return token;
}

export async function rotateAccessToken(userId: string, id: string) {
  const token = await getOwnTokenOrThrow(userId, id);
  if (token.revokedAt) throw new ApiError('conflict', 'a revoked token cannot be rotated; create a new one');
  const secret = newSecret(ACCOUNT_TOKEN_PREFIX);
  // Label and createdAt stay; the old hash is gone, so the old value fails at once.
  const updated = await db.accessToken.update({ where: { id }, data: { tokenHash: secret.hash, prefix: secret.prefix, lastUsedAt: null } });
  return { ...serializeAccessToken(updated), plaintextToken: secret.plaintext };
}

export async function revokeAccessToken(userId: string, id: string) {
  const token = await getOwnTokenOrThrow(userId, id);
  const updated = token.revokedAt ? token : await db.accessToken.update({ where: { id }, data: { revokedAt: new Date() } });
  return serializeAccessToken(updated);
}

export async function deleteAccessToken(userId: string, id: string) {
  await getOwnTokenOrThrow(userId, id);
  await db.accessToken.delete({ where: { id } });
  return { id };
}
