import { db } from '../db';
import { getProviderRowOrThrow, type RouterScope } from './read-providers';

/** DELETE /v1/providers/:slug. Running sessions keep their snapshot of the provider (SessionLog). */
export async function deleteProvider(scope: RouterScope, slug: string) {
  const provider = await getProviderRowOrThrow(scope, slug);
  await db.provider.deleteMany({ where: { id: provider.id, workspaceId: scope.workspaceId } });
  return { slug: provider.slug };
}
