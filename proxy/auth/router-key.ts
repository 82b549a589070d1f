// Router-key authentication for the connect endpoint, /v1/status and the data API. The key is
// taken from `token` or a bearer header, looked up by its SHA-256 (one indexed query, not cached,
// so a revoked key fails on the very next connect), and never forwarded to a provider.
import type { IncomingMessage } from 'node:http';
import { db } from '../../lib/db';
import { hashSecret } from '../../lib/crypto/secrets';

export interface RouterKeyIdentity {
  keyId: string;
  routerId: string;
  workspaceId: string;
  suspended: boolean;
  balanceMillicents: bigint;
}

const HOUR_MS = 3_600_000;

export function keyFrom(req: IncomingMessage, url: URL): string | null {
  const header = req.headers.authorization;
  if (header) {
    const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
    return match ? match[1]! : null;
  }
  return url.searchParams.get('token');
}

interface KeyRow {
  id: string;
  routerId: string;
  workspaceId: string;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  suspended: boolean;
  balanceMillicents: bigint | null;
}

export async function authenticateRouterKey(plaintext: string | null): Promise<RouterKeyIdentity | null> {
  if (!plaintext || !plaintext.startsWith('rkey_') || plaintext.length > 200) return null;
  // Every connect runs this: one hand-written statement costs half of the ORM's compiled query.
  const [key] = await db.$queryRaw<KeyRow[]>`
    SELECT k."id", k."routerId", k."workspaceId", k."revokedAt", k."lastUsedAt", w."suspended", wl."balanceMillicents"
    FROM "RouterKey" k
    JOIN "Workspace" w ON w."id" = k."workspaceId"
    LEFT JOIN "Wallet" wl ON wl."workspaceId" = k."workspaceId"
    WHERE k."keyHash" = ${hashSecret(plaintext)}`;
  if (!key || key.revokedAt) return null;
  if (!key.lastUsedAt || Date.now() - key.lastUsedAt.getTime() > HOUR_MS) {
    void db.routerKey.update({ where: { id: key.id }, data: { lastUsedAt: new Date() } }).catch(() => {});
  }
  return {
    keyId: key.id,
    routerId: key.routerId,
    workspaceId: key.workspaceId,
    suspended: key.suspended,
    balanceMillicents: key.balanceMillicents ?? 0n,
  };
}
