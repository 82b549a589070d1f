// Router keys for the connect endpoint, /v1/status and the data API: where the key is taken from
// (`token` or a bearer header), what a well-formed one looks like, and its lookup by SHA-256 (one
// indexed query, not cached, so a revoked key fails on the very next connect). The key is never
// forwarded to a provider. The request-level rule (client address, failure throttle) is in
// authenticate.ts, the one function all three endpoints call. A workspace marked for deletion
// (its owner deleted the account) is refused like a suspended one.
import type { IncomingMessage } from 'node:http';
import { db, Prisma } from '../../lib/db';
import { usagePeriod } from '../../lib/billing/period';

export interface RouterKeyIdentity {
  keyId: string;
  routerId: string;
  workspaceId: string;
  suspended: boolean;
  enterprise: boolean;
  balanceMillicents: bigint;
  /** Sessions and successful data-API calls counted this UTC month when the key was read. */
  monthSessions: number;
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

export interface KeyRow {
  id: string;
  routerId: string;
  workspaceId: string;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  suspended: boolean;
  enterprise: boolean;
  balanceMillicents: bigint | null;
  monthSessions: number | null;
}

/**
 * Shaped like a key `newSecret('rkey_')` makes (the prefix and 32 random bytes in base64url, 43
 * characters; some slack either way). Anything else fails without a database lookup.
 */
export function isWellFormedRouterKey(plaintext: string | null): plaintext is string {
  return plaintext !== null && /^rkey_[A-Za-z0-9_-]{32,128}$/.test(plaintext);
}

/** The workspace's part of an identity, for a query that joins identityJoins (shared with chat links). */
export const WORKSPACE_COLUMNS = Prisma.sql`(w."suspended" OR w."deletionRequestedAt" IS NOT NULL) AS "suspended", w."enterprise", wl."balanceMillicents", u."sessions" AS "monthSessions"`;
/** A KeyRow's columns, for a query whose RouterKey row is `k` (shared with connect tickets). */
export const IDENTITY_COLUMNS = Prisma.sql`k."id", k."routerId", k."workspaceId", k."revokedAt", k."lastUsedAt", ${WORKSPACE_COLUMNS}`;
/** The joins WORKSPACE_COLUMNS reads, for a row `k` with a workspaceId: the workspace, its wallet and this UTC month's session count. */
export const identityJoins = (now = new Date()) => Prisma.sql`JOIN "Workspace" w ON w."id" = k."workspaceId"
  LEFT JOIN "Wallet" wl ON wl."workspaceId" = k."workspaceId"
  LEFT JOIN "UsageCounter" u ON u."workspaceId" = k."workspaceId" AND u."period" = ${usagePeriod(now)}`;

/** The key's identity by its SHA-256, or null when unknown or revoked. */
export async function lookupRouterKey(keyHash: string): Promise<RouterKeyIdentity | null> {
  // Every connect runs this: one hand-written statement costs half of the ORM's compiled query.
  const [key] = await db.$queryRaw<KeyRow[]>`SELECT ${IDENTITY_COLUMNS} FROM "RouterKey" k ${identityJoins()} WHERE k."keyHash" = ${keyHash}`;
  return identityOf(key);
}

/** A looked-up key row as an identity (null when missing or revoked); marks the key as used. */
export function identityOf(key: KeyRow | undefined): RouterKeyIdentity | null {
  if (!key || key.revokedAt) return null;
  if (!key.lastUsedAt || Date.now() - key.lastUsedAt.getTime() > HOUR_MS) {
    void db.routerKey.update({ where: { id: key.id }, data: { lastUsedAt: new Date() } }).catch(() => {});
  }
  return identityFields(key);
}

/** The identity a looked-up credential row stands for (router keys and chat links alike). */
export function identityFields(key: Omit<KeyRow, 'revokedAt' | 'lastUsedAt'>): RouterKeyIdentity {
  return {
    keyId: key.id,
    routerId: key.routerId,
    workspaceId: key.workspaceId,
    suspended: key.suspended,
    enterprise: key.enterprise,
    balanceMillicents: key.balanceMillicents ?? 0n,
    monthSessions: key.monthSessions ?? 0,
  };
}
