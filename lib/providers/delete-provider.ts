import { db } from '../db';
import { announceRouterChange } from '../routers/notify';
import { getProviderRowOrThrow, type RouterScope } from './read-providers';

/** DELETE /v1/providers/:slug. Running sessions keep their snapshot of the provider (SessionLog). */
export async function deleteProvider(scope: RouterScope, slug: string) {
  const provider = await getProviderRowOrThrow(scope, slug);
  await db.provider.deleteMany({ where: { id: provider.id, workspaceId: scope.workspaceId } });
  await announceRouterChange(scope.routerId);
  return { slug: provider.slug };
}
