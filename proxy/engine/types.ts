// Shapes the engine works on. The edge (hosted proxy or self-hosted gateway) maps its own router
// and provider rows onto these; the engine never sees URLs, keys or sockets.
import type { Clock } from './clock';
import type { SlotStore } from './slots';

export const STRATEGY_NAMES = ['priority-chain', 'round-robin', 'least-connections', 'latency-optimized', 'weighted'] as const;

export type StrategyName = (typeof STRATEGY_NAMES)[number];

/** The router settings the engine uses (ranges and defaults: docs/api.md, PATCH /v1/routers/:id). */
export interface RouterSettings {
  strategy: StrategyName;
  cooldownDefaultMs: number;
  cooldownFailureThreshold: number;
  cooldownMinRequestVolume: number;
  queueMaxSize: number;
  queueTimeoutMs: number;
}

export const DEFAULT_ROUTER_SETTINGS: Readonly<RouterSettings> = Object.freeze({
  strategy: 'round-robin',
  cooldownDefaultMs: 30_000,
  cooldownFailureThreshold: 0.5,
  cooldownMinRequestVolume: 3,
  queueMaxSize: 50,
  queueTimeoutMs: 30_000,
});

/**
 * One enabled provider of the router. Callers may pass a richer object (url, headers, …): the
 * engine is generic over it and hands the same object back on the reservation.
 */
export interface ProviderConfig {
  id: string;
  slug: string;
  priority: number;
  weight: number;
  maxConcurrent: number | null;
  /** A managed provider's advertised capacity; used only when maxConcurrent is null. */
  advertisedMaxConcurrent: number | null;
}

/** A failed connection attempt on the failover chain, in the order tried. */
export interface Attempt {
  providerId: string;
  slug: string;
  reason: string;
}

/** One row of engine.status(); `healthy` is false while cooling down or marked unhealthy. */
export interface ProviderStatus {
  id: string;
  slug: string;
  healthy: boolean;
  active: number;
  maxConcurrent: number | null;
  cooldownUntil: number | null;
  /** The provider answered "at capacity" and is left out for now (not a failure; `healthy` stays true). */
  full: boolean;
  priority: number;
  latencyMs: number | null;
}

/** Effective concurrency limit: explicit setting, else advertised capacity, else unlimited (null). */
export function concurrencyLimit(p: ProviderConfig): number | null {
  return p.maxConcurrent ?? p.advertisedMaxConcurrent ?? null;
}

/** Providers by id with their configured position (the strategies' stable tie-breaker). */
export type ProviderIndex<P extends ProviderConfig> = Map<string, { provider: P; position: number }>;

/** Ids and slugs must be unique on a router: pinning resolves either. */
export function indexProviders<P extends ProviderConfig>(providers: readonly P[]): ProviderIndex<P> {
  const index: ProviderIndex<P> = new Map();
  const slugs = new Set<string>();
  providers.forEach((provider, position) => {
    if (index.has(provider.id)) throw new RangeError(`duplicate provider id ${provider.id}`);
    if (slugs.has(provider.slug)) throw new RangeError(`duplicate provider slug ${provider.slug}`);
    index.set(provider.id, { provider, position });
    slugs.add(provider.slug);
  });
  return index;
}

export interface RouterEngineOptions<P extends ProviderConfig> {
  clock: Clock;
  settings: RouterSettings;
  /** Enabled providers in configured order (the order is the strategies' stable tie-breaker). */
  providers: readonly P[];
  slots?: SlotStore;
  /** Overrides FULL_RETRY_MS. */
  fullRetryMs?: number;
  /**
   * Several proxies share these providers (proxy/cluster/): cooldown is decided from the failures
   * all of them saw and applied here through enterCooldown() (this engine's own count decides
   * nothing), and a provider found full stays so until capacityFreed() announces a freed slot (a
   * slot released here is announced the same way), which lets one waiter try for each.
   */
  shared?: boolean;
}

export interface AcquireOptions<P extends ProviderConfig> {
  /** Provider id or slug: route only there, never queue, never fail over. */
  pin?: string;
  /** Filters the providers this connection may use (e.g. profile rules). */
  eligible?: (provider: P) => boolean;
  /** Aborting while queued rejects with `aborted`; it does not touch a resolved reservation. */
  signal?: AbortSignal;
}
