// Router keys (rkey_…) authenticate the connect endpoint, the data API and MCP. The hash is the
// lookup; the ciphertext lets GET /v1/api-keys/current/plaintext show the newest key again.
import type { Tx } from '../db';
import { newSecret } from '../crypto/secrets';
import { encryptText } from '../crypto/encryption';
import type { z } from 'zod';
import type { routerKey as routerKeyAnswer } from '../openapi/resources/routers';

export const ROUTER_KEY_PREFIX = 'rkey_';

export async function createRouterKey(tx: Tx, input: { workspaceId: string; routerId: string; label: string }) {
  const secret = newSecret(ROUTER_KEY_PREFIX);
  const key = await tx.routerKey.create({
    data: { ...input, prefix: secret.prefix, keyHash: secret.hash, keyEncrypted: encryptText(secret.plaintext) },
  });
  return { key, plaintextKey: secret.plaintext };
}

export function serializeRouterKey(key: {
  id: string;
  routerId: string;
  label: string;
  prefix: string;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
}): z.input<typeof routerKeyAnswer> {
  return {
    id: key.id,
    routerInstanceId: key.routerId,
    label: key.label,
    prefix: key.prefix,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
    createdAt: key.createdAt.toISOString(),
  };
}
