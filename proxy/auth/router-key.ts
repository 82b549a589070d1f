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

export async function authenticateRouterKey(plaintext: string | null): Promise<RouterKeyIdentity | null> {
  if (!plaintext || !plaintext.startsWith('rkey_') || plaintext.length > 200) return null;
  const key = await db.routerKey.findUnique({
    where: { keyHash: hashSecret(plaintext) },
    select: { id: true, routerId: true, workspaceId: true, revokedAt: true, lastUsedAt: true, workspace: { select: { suspended: true, wallet: { select: { balanceMillicents: true } } } } },
  });
  if (!key || key.revokedAt) return null;
  if (!key.lastUsedAt || Date.now() - key.lastUsedAt.getTime() > HOUR_MS) {
    void db.routerKey.update({ where: { id: key.id }, data: { lastUsedAt: new Date() } }).catch(() => {});
  }
  return {
    keyId: key.id,
    routerId: key.routerId,
    workspaceId: key.workspaceId,
    suspended: key.workspace.suspended,
    balanceMillicents: key.workspace.wallet?.balanceMillicents ?? 0n,
  };
}
