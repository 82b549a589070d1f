// Chat links: one per router; the token in the link authenticates the MCP surface. Rotating or
// deleting a link cuts off everything opened with it (docs/agents.md, The MCP endpoint).
import { db, type Tx } from '../db';
import { notFound } from '../api/errors';
import { decryptText, encryptText } from '../crypto/encryption';
import { newSecret } from '../crypto/secrets';
import { notifyAccessRevoked } from '../sessions/notify';

export const CHAT_LINK_PREFIX = 'mcp_';

type ChatLinkRow = { id: string; routerId: string; tokenEncrypted: string; lastUsedAt: Date | null; createdAt: Date };

function serializeChatLink(link: ChatLinkRow) {
  return {
    id: link.id,
    routerInstanceId: link.routerId,
    token: decryptText(link.tokenEncrypted),
    lastUsedAt: link.lastUsedAt?.toISOString() ?? null,
    createdAt: link.createdAt.toISOString(),
  };
}

export async function getChatLink(routerId: string) {
  const link = await db.chatLink.findUnique({ where: { routerId } });
  return link ? serializeChatLink(link) : null;
}

/**
 * The new link gets a new id, so that everything the old one opened (MCP sessions, their browsers)
 * is told apart from what the new one opens: the NOTIFY, sent on commit, makes every proxy close
 * the old link's live sessions, and its token stops working at once (its hash is gone).
 */
export async function rotateChatLink(workspaceId: string, routerId: string) {
  const secret = newSecret(CHAT_LINK_PREFIX);
  const link = await db.$transaction(async (tx) => {
    // Two rotations at once take turns here rather than racing for the router's one link.
    await tx.$executeRaw`SELECT 1 FROM "Router" WHERE "id" = ${routerId} FOR UPDATE`;
    await removeChatLink(tx, routerId);
    return tx.chatLink.create({ data: { workspaceId, routerId, tokenHash: secret.hash, tokenEncrypted: encryptText(secret.plaintext) } });
  });
  return serializeChatLink(link);
}

export async function deleteChatLink(routerId: string) {
  const id = await db.$transaction((tx) => removeChatLink(tx, routerId));
  if (!id) throw notFound('chat link');
  return { id };
}

/** Deletes the router's link, if any, and announces its id as revoked; returns that id. */
async function removeChatLink(tx: Tx, routerId: string): Promise<string | null> {
  const [removed] = await tx.$queryRaw<{ id: string }[]>`DELETE FROM "ChatLink" WHERE "routerId" = ${routerId} RETURNING "id"`;
  if (!removed) return null;
  await notifyAccessRevoked(tx, { cause: 'chat_link_revoked', keyIds: [removed.id] });
  return removed.id;
}
