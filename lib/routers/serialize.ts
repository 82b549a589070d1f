import type { Router } from '../db/generated/client';
import type { z } from 'zod';
import type { router as routerAnswer } from '../openapi/resources/routers';
import { declaredValue } from '../openapi/resources/common';
import { ROUTER_STRATEGIES } from './schemas';

type RouterWithCounts = Router & { _count: { providers: number; keys: number } };

export const routerCountsInclude = {
  _count: { select: { providers: true, keys: { where: { revokedAt: null } } } },
} as const;

export function serializeRouter(router: RouterWithCounts): z.input<typeof routerAnswer> {
  return {
    id: router.id,
    slug: router.slug,
    name: router.name,
    description: router.description,
    kind: router.kind,
    strategy: declaredValue(ROUTER_STRATEGIES, router.strategy, 'Router.strategy'),
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
