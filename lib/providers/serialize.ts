import type { Provider } from '../db/generated/client';
import { unprobedCapabilities, type Capabilities } from './probe-capabilities';

export type ProviderWithProfile = Provider & { profile: { slug: string } | null };

export const providerInclude = { profile: { select: { slug: true } } } as const;

/** The Provider resource of docs/api.md, field for field; secrets never leave through it. */
export function serializeProvider(provider: ProviderWithProfile) {
  return {
    id: provider.id,
    ownerId: provider.workspaceId,
    slug: provider.slug,
    name: provider.name,
    url: provider.adapterKind ? null : provider.urlDisplay,
    adapterKind: provider.adapterKind,
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
