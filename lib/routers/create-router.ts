import type { Tx } from '../db';
import { createRouterKey } from '../keys/create-router-key';
import { addLocalPoolProvider } from '../providers/local-pool';

/** Creates a router with its first router key (and, on a local install, the pool as its first provider). */
export async function createRouterWithKey(tx: Tx, input: { workspaceId: string; name: string; slug: string; description?: string | null }) {
  const router = await tx.router.create({
    data: { workspaceId: input.workspaceId, name: input.name, slug: input.slug, description: input.description ?? null },
  });
  const { key, plaintextKey } = await createRouterKey(tx, { workspaceId: input.workspaceId, routerId: router.id, label: 'Default key' });
  await addLocalPoolProvider(tx, { workspaceId: input.workspaceId, routerId: router.id });
  return { router, key, plaintextKey };
}
