// GET /v1/status: the status record of docs/gateway.md for each provider (id, healthy, active,
// maxConcurrent, cooldownUntil), and beside it what the spec leaves open: the last probe of each
// provider (reachable, checkedAt, latencyMs, reason), the connections waiting now (queued) and the
// sessions running now (sessions). The spec types `maxConcurrent` as an integer, so a provider
// without a limit reports NO_LIMIT rather than null (docs/gateway.md, "Running it").
import type { RouterEngine } from '../engine';
import type { EngineProvider, LiveSession } from './connect';
import type { ProviderProbes } from './probes';

/** `maxConcurrent` of a provider without a limit: never a real one (a limit is 1 or more). */
export const NO_LIMIT = -1;

export interface ProviderStatusRecord {
  id: string;
  /** Not in cooldown, and the last probe did not fail. */
  healthy: boolean;
  active: number;
  /** The provider's limit, or NO_LIMIT. */
  maxConcurrent: number;
  cooldownUntil: string | null;
  reachable: boolean | null;
  checkedAt: string | null;
  latencyMs: number | null;
  reason: string | null;
}

export interface GatewayStatus {
  queued: number;
  providers: ProviderStatusRecord[];
  sessions: { id: string; provider: string; startedAt: string }[];
}

export function gatewayStatus(engine: RouterEngine<EngineProvider>, probes: ProviderProbes, sessions: Iterable<LiveSession>): GatewayStatus {
  return {
    queued: engine.queueLength,
    providers: engine.status().map((s) => {
      const probe = probes.of(s.id);
      return {
        id: s.id,
        // A provider the probe found dead is not reported healthy, though it stays in the pool
        // (routing only skips cooldown and capacity); healthy:false with cooldownUntil null means that.
        healthy: s.healthy && probe.reachable !== false,
        active: s.active,
        maxConcurrent: s.maxConcurrent ?? NO_LIMIT,
        cooldownUntil: s.cooldownUntil === null ? null : new Date(s.cooldownUntil).toISOString(),
        ...probe,
      };
    }),
    sessions: [...sessions]
      .sort((a, b) => a.startedAt - b.startedAt)
      .map((s) => ({ id: s.id, provider: s.provider, startedAt: new Date(s.startedAt).toISOString() })),
  };
}
