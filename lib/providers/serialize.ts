import type { Provider } from '../db/generated/client';
import { unprobedCapabilities, type Capabilities } from './probe-capabilities';
import type { z } from 'zod';
import type { provider as providerAnswer } from '../openapi/resources/providers';
import { declaredValue } from '../openapi/resources/common';
import { ADAPTER_KINDS } from './schemas';

export type ProviderWithProfile = Provider & { profile: { slug: string } | null };

export const providerInclude = { profile: { select: { slug: true } } } as const;

/** The Provider resource of docs/api.md, field for field; secrets never leave through it. */
export function serializeProvider(provider: ProviderWithProfile): z.input<typeof providerAnswer> {
  return {
    id: provider.id,
    ownerId: provider.workspaceId,
    slug: provider.slug,
    name: provider.name,
    url: provider.adapterKind ? null : provider.urlDisplay,
    adapterKind: provider.adapterKind === null ? null : declaredValue(ADAPTER_KINDS, provider.adapterKind, 'Provider.adapterKind'),
    priority: provider.priority,
    weight: provider.weight,
    maxConcurrent: provider.maxConcurrent,
    profile: provider.profile?.slug ?? null,
    capabilities: (provider.capabilities as Capabilities | null) ?? unprobedCapabilities(),
    headers: null,
    enabled: provider.enabled,
    createdAt: provider.createdAt.toISOString(),
    updatedAt: provider.updatedAt.toISOString(),
  };
}
