import type { Prisma } from '../db/generated/client';
import { db } from '../db';
import { announceRouterChange } from '../routers/notify';
import { ApiError } from '../api/errors';
import { testAndProbe } from './check-provider';
import { getConnectionTimeoutMs, getProviderRowOrThrow, type RouterScope } from './read-providers';
import { openAddress } from './secrets';
import { providerInclude, serializeProvider } from './serialize';

/** POST /v1/providers/:slug/reprobe. A provider that fails its test keeps its old capabilities. */
export async function reprobeProvider(scope: RouterScope, slug: string) {
  const provider = await getProviderRowOrThrow(scope, slug);
  const address = openAddress(provider);
  if (provider.adapterKind || !address) {
    throw new ApiError('validation_error', 'reprobe is not available for key-based providers: probing would start a billed vendor browser');
  }
  const probed = await testAndProbe(address, await getConnectionTimeoutMs(scope));
  const updated = await db.provider.update({
    where: { id: provider.id },
    data: { capabilities: probed.capabilities as unknown as Prisma.InputJsonValue },
    include: providerInclude,
  });
  await announceRouterChange(scope.routerId);
  return serializeProvider(updated);
}
