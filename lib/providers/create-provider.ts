// POST /v1/providers. The address form is tested and probed over real CDP before it is saved; the
// key form has its key checked with the vendor. A provider that fails is not saved: the caller
// learns why at once (docs/decisions-providers.md).
import type { Prisma } from '../db/generated/client';
import { db } from '../db';
import { announceRouterChange } from '../routers/notify';
import { testAndProbe } from './check-provider';
import { unprobedCapabilities } from './probe-capabilities';
import { assertSlugFree, findProfileIdOrThrow, getConnectionTimeoutMs, type RouterScope } from './read-providers';
import { isKeyForm, type AddressFormInput, type CreateProviderInput, type KeyFormInput } from './schemas';
import { sealAddress, sealCredentials } from './secrets';
import { providerInclude, serializeProvider } from './serialize';
import { verifyKey } from './verify-key';

export async function createProvider(scope: RouterScope, input: CreateProviderInput) {
  const profileId = input.profile === undefined ? null : await findProfileIdOrThrow(scope.workspaceId, input.profile);
  await assertSlugFree(scope, input.slug);
  const data = isKeyForm(input) ? await keyFormData(input) : await addressFormData(scope, input);
  const provider = await db.provider.create({
    data: {
      ...data,
      workspaceId: scope.workspaceId,
      routerId: scope.routerId,
      slug: input.slug,
      name: input.name ?? input.slug,
      priority: input.priority,
      weight: input.weight,
      maxConcurrent: input.maxConcurrent,
      profileId,
    },
    include: providerInclude,
  });
  await announceRouterChange(scope.routerId);
  return serializeProvider(provider);
}

async function addressFormData(scope: RouterScope, input: AddressFormInput) {
  const headers = input.headers ?? {};
  const probed = await testAndProbe({ url: input.url, headers }, await getConnectionTimeoutMs(scope));
  return { ...sealAddress(probed.resolvedUrl, headers), capabilities: probed.capabilities as unknown as Prisma.InputJsonValue };
}

async function keyFormData(input: KeyFormInput) {
  await verifyKey(input);
  return {
    adapterKind: input.adapterKind,
    credentialsEncrypted: sealCredentials(input.credentials),
    options: input.options as Prisma.InputJsonValue,
    capabilities: unprobedCapabilities() as unknown as Prisma.InputJsonValue,
  };
}
