// Chat links: one per router; the token in the link authenticates the MCP surface.
import { db } from '../db';
import { notFound } from '../api/errors';
import { decryptText, encryptText } from '../crypto/encryption';
import { newSecret } from '../crypto/secrets';

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

export async function rotateChatLink(workspaceId: string, routerId: string) {
  const secret = newSecret(CHAT_LINK_PREFIX);
  const data = { tokenHash: secret.hash, tokenEncrypted: encryptText(secret.plaintext), lastUsedAt: null, createdAt: new Date() };
  // Replacing the hash in place makes the old link fail at once.
  const link = await db.chatLink.upsert({ where: { routerId }, create: { workspaceId, routerId, ...data }, update: data });
  return serializeChatLink(link);
}

export async function deleteChatLink(routerId: string) {
  const link = await db.chatLink.findUnique({ where: { routerId } });
  if (!link) throw notFound('chat link');
  await db.chatLink.delete({ where: { routerId } });
  return { id: link.id };
}
