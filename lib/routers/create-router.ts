import type { Tx } from '../db';
import { createRouterKey } from '../keys/create-router-key';

/** Creates a router with its first router key, inside the caller's transaction. */
export async function createRouterWithKey(tx: Tx, input: { workspaceId: string; name: string; slug: string; description?: string | null }) {
  const router = await tx.router.create({ data: { workspaceId: input.workspaceId, name: input.name, slug: input.slug, description: input.description ?? null } });
  const { key, plaintextKey } = await createRouterKey(tx, { workspaceId: input.workspaceId, routerId: router.id, label: 'Default key' });
  return { router, key, plaintextKey };
}
