// Step 1 of the wrapper: who is calling. An `Authorization` header must carry an account token
// (`acct_…`); without one, the dashboard's session cookie is read. Anything else is 401.
import type { NextRequest } from 'next/server';
import { getToken } from 'next-auth/jwt';
import { db } from '../db';
import { hashSecret, constantTimeEqual } from '../crypto/secrets';
import { ApiError } from './errors';
import type { AuthUser, AuthVia } from './context';
import { authSecret } from '../auth/secret';

export const ACCOUNT_TOKEN_PREFIX = 'acct_';
const HOUR_MS = 3_600_000;

const userFields = {
  id: true,
  email: true,
  name: true,
  image: true,
  emailVerifiedAt: true,
  activeWorkspaceId: true,
  activeRouterId: true,
  deletionRequestedAt: true,
  createdAt: true,
  sessionVersion: true,
} as const;

export interface Authenticated {
  user: AuthUser;
  via: AuthVia;
  tokenId?: string;
}

const unauthenticated = (message: string) => new ApiError('unauthenticated', message);

export async function authenticate(req: NextRequest): Promise<Authenticated | null> {
  const header = req.headers.get('authorization');
  if (header !== null) return authenticateBearer(header);
  return authenticateCookie(req);
}

async function authenticateBearer(header: string): Promise<Authenticated> {
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  if (!match) throw unauthenticated('send "Authorization: Bearer <account token>"');
  const secret = match[1]!;
  if (!secret.startsWith(ACCOUNT_TOKEN_PREFIX)) {
    throw unauthenticated('this API takes an account token (acct_…); router keys work only on the connect and data endpoints');
  }
  const hash = hashSecret(secret);
  const token = await db.accessToken.findUnique({
    where: { tokenHash: hash },
    select: { id: true, tokenHash: true, revokedAt: true, lastUsedAt: true, user: { select: userFields } },
  });
  if (!token || token.revokedAt || !constantTimeEqual(token.tokenHash, hash)) throw unauthenticated('the account token is invalid or revoked');
  if (token.user.deletionRequestedAt) throw unauthenticated('the account is scheduled for deletion; sign in to the dashboard to restore it');
  if (!token.lastUsedAt || Date.now() - token.lastUsedAt.getTime() > HOUR_MS) {
    // At most one write an hour per token; a lost race only writes the same hour twice.
    void db.accessToken
      .updateMany({
        where: { id: token.id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(Date.now() - HOUR_MS) } }] },
        data: { lastUsedAt: new Date() },
      })
      .catch(() => {});
  }
  return { user: token.user, via: 'bearer', tokenId: token.id };
}

async function authenticateCookie(req: NextRequest): Promise<Authenticated | null> {
  const jwt = await getToken({ req, secret: authSecret() });
  if (!jwt?.sub) return null;
  const user = await db.user.findUnique({ where: { id: jwt.sub }, select: userFields });
  if (!user || user.sessionVersion !== (jwt.sv ?? 0)) return null;
  return { user, via: 'cookie' };
}
