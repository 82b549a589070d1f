// Chat links for the MCP surface: the router's one `mcp_…` token (lib/keys/chat-links.ts), looked up
// by SHA-256 in one indexed query, not cached, so a rotated or deleted link fails on the very next
// request. It stands for the same identity a router key of that router would (router, workspace,
// wallet); `keyId` is the link's id, which rotation replaces. The request-level rule (client
// address, failure throttle) is RouterKeyAuth.checkMcp in authenticate.ts.
import { hashSecret } from '../../lib/crypto/secrets';
import { db } from '../../lib/db';
import { identityFields, identityJoins, WORKSPACE_COLUMNS, type KeyRow, type RouterKeyIdentity } from './router-key';

/** A chat link in use is marked at most this often (the dashboard shows "last used"). */
const MARK_USED_EVERY_MS = 60_000;

/**
 * Shaped like a token `newSecret('mcp_')` makes: the prefix and 32 random bytes in base64url (43
 * characters). Anything else fails without a database lookup.
 */
export function isWellFormedChatLink(plaintext: string | null): plaintext is string {
  return plaintext !== null && /^mcp_[A-Za-z0-9_-]{43}$/.test(plaintext);
}

/** The link's identity by its token's SHA-256, or null when there is no such link (any more). */
export async function lookupChatLink(tokenHash: string): Promise<RouterKeyIdentity | null> {
  const [link] = await db.$queryRaw<Omit<KeyRow, 'revokedAt'>[]>`
    SELECT k."id", k."routerId", k."workspaceId", k."lastUsedAt", ${WORKSPACE_COLUMNS}
    FROM "ChatLink" k ${identityJoins()} WHERE k."tokenHash" = ${tokenHash}`;
  if (!link) return null;
  if (!link.lastUsedAt || Date.now() - link.lastUsedAt.getTime() > MARK_USED_EVERY_MS) {
    // updateMany: a link rotated away meanwhile is simply not there to mark.
    void db.chatLink.updateMany({ where: { id: link.id }, data: { lastUsedAt: new Date() } }).catch(() => {});
  }
  return identityFields(link);
}

/** checkChatLink(plaintext): the identity of a chat link token, or null (no lookup when malformed). */
export async function checkChatLink(tokenPlaintext: string | null): Promise<RouterKeyIdentity | null> {
  if (!isWellFormedChatLink(tokenPlaintext)) return null;
  return lookupChatLink(hashSecret(tokenPlaintext));
}
