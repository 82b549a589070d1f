// PATCH /v1/providers/:slug. `profile: null` unpins; a new url (or new headers) is tested and
// probed again before it replaces the old one; url and headers do not apply to key-based providers.
import type { Prisma } from '../db/generated/client';
import { db } from '../db';
import { announceRouterChange } from '../routers/notify';
import { invalidField, invalidFields } from '../api/errors';
import { testAndProbe } from './check-provider';
import { findProfileIdOrThrow, getConnectionTimeoutMs, getProviderRowOrThrow, type RouterScope } from './read-providers';
import type { UpdateProviderInput } from './schemas';
import { openAddress, sealAddress } from './secrets';
import { providerInclude, serializeProvider } from './serialize';

export async function updateProvider(scope: RouterScope, slug: string, input: UpdateProviderInput) {
  const current = await getProviderRowOrThrow(scope, slug);
  const addressFields = (['url', 'headers'] as const).filter((field) => input[field] !== undefined);
  if (current.adapterKind && addressFields.length > 0) {
    throw invalidFields(
      addressFields.map((field) => ({ path: field, message: "not available on a key-based provider (its browsers come from the vendor's API)" })),
    );
  }

  const data: Prisma.ProviderUncheckedUpdateInput = {};
  if (input.name !== undefined) data.name = input.name;
  if (input.priority !== undefined) data.priority = input.priority;
  if (input.weight !== undefined) data.weight = input.weight;
  if (input.maxConcurrent !== undefined) data.maxConcurrent = input.maxConcurrent;
  if (input.enabled !== undefined) data.enabled = input.enabled;
  if (input.profile !== undefined) data.profileId = input.profile === null ? null : await findProfileIdOrThrow(scope.workspaceId, input.profile);

  if (addressFields.length > 0) {
    const stored = openAddress(current);
    const url = input.url ?? stored?.url;
    if (!url) throw invalidField('url', 'this provider has no address; send one');
    const headers = input.headers === undefined ? (stored?.headers ?? {}) : (input.headers ?? {});
    const probed = await testAndProbe({ url, headers }, await getConnectionTimeoutMs(scope));
    Object.assign(data, sealAddress(probed.resolvedUrl, headers), { capabilities: probed.capabilities as unknown as Prisma.InputJsonValue });
  }

  const updated = await db.provider.update({ where: { id: current.id }, data, include: providerInclude });
  await announceRouterChange(scope.routerId);
  return serializeProvider(updated);
}
