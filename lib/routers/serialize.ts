import type { Router } from '../db/generated/client';

type RouterWithCounts = Router & { _count: { providers: number; keys: number } };

export const routerCountsInclude = {
  _count: { select: { providers: true, keys: { where: { revokedAt: null } } } },
} as const;

export function serializeRouter(router: RouterWithCounts) {
  return {
    id: router.id,
    slug: router.slug,
    name: router.name,
    description: router.description,
    kind: router.kind,
    strategy: router.strategy,
    cooldownDefaultMs: router.cooldownDefaultMs,
    cooldownFailureThreshold: router.cooldownFailureThreshold,
    cooldownMinRequestVolume: router.cooldownMinRequestVolume,
    connectionTimeoutMs: router.connectionTimeoutMs,
    sessionIdleTimeoutMs: router.sessionIdleTimeoutMs,
    queueMaxSize: router.queueMaxSize,
    queueTimeoutMs: router.queueTimeoutMs,
    healthCheckIntervalMs: router.healthCheckIntervalMs,
    traceRedactNames: router.traceRedactNames,
    providerCount: router._count.providers,
    apiKeyCount: router._count.keys,
    createdAt: router.createdAt.toISOString(),
    updatedAt: router.updatedAt.toISOString(),
  };
}
