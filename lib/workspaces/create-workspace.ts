// A workspace is born with its owner, an empty wallet and a default router (with its first key).
import { randomBytes } from 'node:crypto';
import type { Tx } from '../db';
import { createRouterWithKey } from '../routers/create-router';
import { slugify } from '../routers/slug';

export async function createWorkspace(tx: Tx, input: { ownerId: string; name: string }) {
  // Workspace slugs are global; a short random tail keeps them unique without a retry loop.
  const slug = `${slugify(input.name, 32)}-${randomBytes(3).toString('hex')}`;
  const workspace = await tx.workspace.create({
    data: {
      name: input.name,
      slug,
      memberships: { create: { userId: input.ownerId, role: 'owner' } },
      wallet: { create: {} },
    },
  });
  const { router, plaintextKey } = await createRouterWithKey(tx, { workspaceId: workspace.id, name: 'Default', slug: 'default' });
  return { workspace, router, plaintextKey };
}
