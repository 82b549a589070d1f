// Router keys: several live keys per router; rotate revokes every live key and issues one;
// revoked keys stay listed. Live keys per workspace are capped at 100. Revoking (or rotating)
// also ends the live sessions opened with those keys, on whichever proxy holds them.
import { db, type Tx } from '../db';
import { ApiError, notFound } from '../api/errors';
import { decryptText } from '../crypto/encryption';
import { notifyRouterChanged } from '../routers/notify';
import { notifyAccessRevoked } from '../sessions/notify';
import { ROUTER_KEYS_PER_WORKSPACE } from '../workspaces/limits';
import { createRouterKey, serializeRouterKey } from './create-router-key';

export async function listRouterKeys(routerId: string) {
  const keys = await db.routerKey.findMany({ where: { routerId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
  return { items: keys.map(serializeRouterKey), total: keys.length };
}

async function getKeyOrThrow(workspaceId: string, id: string) {
  const key = await db.routerKey.findFirst({ where: { id, workspaceId } });
  if (!key) throw notFound('router key');
  return key;
}

export async function getRouterKey(workspaceId: string, id: string) {
  return serializeRouterKey(await getKeyOrThrow(workspaceId, id));
}

async function assertKeyCap(tx: Tx, workspaceId: string, adding: number, revoking = 0) {
  await tx.$executeRaw`SELECT 1 FROM "Workspace" WHERE "id" = ${workspaceId} FOR UPDATE`;
  const live = await tx.routerKey.count({ where: { workspaceId, revokedAt: null } });
  if (live - revoking + adding > ROUTER_KEYS_PER_WORKSPACE) {
    throw new ApiError('fair_use_limit_reached', `a workspace can hold at most ${ROUTER_KEYS_PER_WORKSPACE} live router keys; revoke some first`);
  }
}

export async function issueRouterKey(workspaceId: string, routerId: string, label: string) {
  const { key, plaintextKey } = await db.$transaction(async (tx) => {
    await assertKeyCap(tx, workspaceId, 1);
    return createRouterKey(tx, { workspaceId, routerId, label });
  });
  return { ...serializeRouterKey(key), plaintextKey };
}

export async function rotateRouterKeys(workspaceId: string, routerId: string, label = 'Rotated key') {
  const { key, plaintextKey } = await db.$transaction(async (tx) => {
    const live = await tx.routerKey.count({ where: { routerId, revokedAt: null } });
    await assertKeyCap(tx, workspaceId, 1, live);
    const revoked = await tx.$queryRaw<{ id: string }[]>`
      UPDATE "RouterKey" SET "revokedAt" = now() WHERE "routerId" = ${routerId} AND "revokedAt" IS NULL RETURNING "id"`;
    await notifyRouterChanged(tx, routerId);
    await notifyAccessRevoked(tx, { cause: 'keys_rotated', keyIds: revoked.map((k) => k.id) });
    return createRouterKey(tx, { workspaceId, routerId, label });
  });
  return { ...serializeRouterKey(key), plaintextKey };
}

export async function revokeRouterKey(workspaceId: string, id: string) {
  const key = await getKeyOrThrow(workspaceId, id);
  if (key.revokedAt) return serializeRouterKey(key);
  const revoked = await db.$transaction(async (tx) => {
    const updated = await tx.routerKey.update({ where: { id }, data: { revokedAt: new Date() } });
    await notifyRouterChanged(tx, key.routerId);
    await notifyAccessRevoked(tx, { cause: 'key_revoked', keyIds: [id] });
    return updated;
  });
  return serializeRouterKey(revoked);
}

/** The newest live key of the router, decrypted (owner/admin only). */
export async function currentRouterKeyPlaintext(routerId: string) {
  const key = await db.routerKey.findFirst({
    where: { routerId, revokedAt: null, keyEncrypted: { not: null } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
  if (!key) throw notFound('live router key');
  return { apiKeyId: key.id, plaintextKey: decryptText(key.keyEncrypted!) };
}
