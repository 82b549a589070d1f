// Orders the providers eligible for one connection by the router's strategy. The first
// *available* provider in the order is the pick; the rest of the order is the failover chain.

import type { ProviderConfig, StrategyName } from './types';

/** What a strategy may know about the providers at the moment of ordering. */
export interface RoutingView {
  /** Sessions (and attempts in flight) holding a slot on the provider. */
  active(providerId: string): number;
  /** Moving average of connect latency; null before the first sample. */
  latencyMs(providerId: string): number | null;
  /** Healthy, not cooling down and below its concurrency limit right now. */
  available(providerId: string): boolean;
  /** Position in the router's configured provider list: the stable tie-breaker. */
  position(providerId: string): number;
}

export interface Strategy {
  readonly name: StrategyName;
  /**
   * Returns `providers` (any subset of the configured list) in the order to try them. Stateful
   * strategies advance their rotation only when an available provider exists, so asking for an
   * order while everything is full does not skew the distribution.
   */
  order<P extends ProviderConfig>(providers: readonly P[], view: RoutingView): P[];
  /** Drop rotation state of providers that left the configuration. */
  retain(ids: ReadonlySet<string>): void;
}

type Compare = (a: ProviderConfig, b: ProviderConfig) => number;

function byPriority(view: RoutingView): Compare {
  return (a, b) => a.priority - b.priority || view.position(a.id) - view.position(b.id);
}

function sorted<P extends ProviderConfig>(providers: readonly P[], cmp: Compare): P[] {
  return [...providers].sort(cmp);
}

const priorityChain: () => Strategy = () => ({
  name: 'priority-chain',
  order: (providers, view) => sorted(providers, byPriority(view)),
  retain: () => {},
});

const leastConnections: () => Strategy = () => ({
  name: 'least-connections',
  order: (providers, view) => {
    const tie = byPriority(view);
    return sorted(providers, (a, b) => view.active(a.id) - view.active(b.id) || tie(a, b));
  },
  retain: () => {},
});

const latencyOptimized: () => Strategy = () => ({
  name: 'latency-optimized',
  order: (providers, view) => {
    const tie = byPriority(view);
    return sorted(providers, (a, b) => {
      const la = view.latencyMs(a.id);
      const lb = view.latencyMs(b.id);
      // Unmeasured providers first: otherwise a provider added later is never measured.
      if (la === null || lb === null) return (la === null ? 0 : 1) - (lb === null ? 0 : 1) || tie(a, b);
      return la - lb || tie(a, b);
    });
  },
  retain: () => {},
});

/**
 * The cursor is a position in the configured list, not an index into the subset being ordered,
 * so requests with different eligible subsets share one rotation. After a pick the cursor moves
 * past the picked provider (not just by one), which keeps the rotation even when some providers
 * are skipped as unavailable.
 */
function roundRobin(): Strategy {
  let cursor = 0;
  return {
    name: 'round-robin',
    order(providers, view) {
      const ring = sorted(providers, (a, b) => view.position(a.id) - view.position(b.id));
      if (ring.length === 0) return ring;
      const fromCursor = ring.findIndex((p) => view.position(p.id) >= cursor);
      const start = fromCursor === -1 ? 0 : fromCursor;
      const rotated = [...ring.slice(start), ...ring.slice(0, start)];
      const pick = rotated.findIndex((p) => view.available(p.id));
      if (pick === -1) return rotated;
      cursor = view.position(rotated[pick]!.id) + 1;
      return [...rotated.slice(pick), ...rotated.slice(0, pick)];
    },
    retain: () => {},
  };
}

/**
 * Smooth weighted round-robin as in nginx: each pick adds every available provider's weight to
 * its current value, takes the largest, and subtracts the total from the winner. Over any run of
 * totalWeight picks each provider is chosen exactly `weight` times, and picks are interleaved
 * rather than bursty. Unavailable providers are left out of the round (their value is frozen),
 * as nginx does for down peers.
 */
function weighted(): Strategy {
  const current = new Map<string, number>();
  return {
    name: 'weighted',
    order(providers, view) {
      const tie = byPriority(view);
      const byWeight = sorted(providers, (a, b) => b.weight - a.weight || tie(a, b));
      const candidates = sorted(
        providers.filter((p) => view.available(p.id)),
        (a, b) => view.position(a.id) - view.position(b.id),
      );
      if (candidates.length === 0) return byWeight;
      let total = 0;
      let best = candidates[0]!;
      let bestValue = -Infinity;
      for (const p of candidates) {
        const weight = Math.max(0, p.weight);
        const value = (current.get(p.id) ?? 0) + weight;
        current.set(p.id, value);
        total += weight;
        if (value > bestValue) {
          best = p;
          bestValue = value;
        }
      }
      current.set(best.id, bestValue - total);
      return [best, ...byWeight.filter((p) => p !== best)];
    },
    retain(ids) {
      for (const id of current.keys()) if (!ids.has(id)) current.delete(id);
    },
  };
}

const FACTORIES: Record<StrategyName, () => Strategy> = {
  'priority-chain': priorityChain,
  'round-robin': roundRobin,
  'least-connections': leastConnections,
  'latency-optimized': latencyOptimized,
  weighted,
};

/** A fresh strategy instance; rotation state lives in the instance (one per engine). */
export function createStrategy(name: StrategyName): Strategy {
  const factory = FACTORIES[name];
  if (!factory) throw new RangeError(`unknown routing strategy: ${String(name)}`);
  return factory();
}
