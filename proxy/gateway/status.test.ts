// The status record of GET /v1/status built from the engine and the probes, on a fake clock:
// `maxConcurrent` is an integer for every provider, NO_LIMIT (-1) for one without a limit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_ROUTER_SETTINGS, FakeClock, RouterEngine } from '../engine';
import type { GatewayProvider } from './config';
import type { EngineProvider } from './connect';
import { ProviderProbes } from './probes';
import { gatewayStatus, NO_LIMIT } from './status';

function gatewayProvider(id: string, maxConcurrent: number | null): EngineProvider {
  const config: GatewayProvider = { id, url: `ws://127.0.0.1:1/devtools/browser/${id}`, headers: {}, limits: { maxConcurrent }, priority: 1, weight: 1 };
  return { id, slug: id, priority: 1, weight: 1, maxConcurrent, advertisedMaxConcurrent: null, config };
}

test('maxConcurrent is the limit, or NO_LIMIT (-1) for a provider without one; never null', async () => {
  const clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
  const providers = [gatewayProvider('open', null), gatewayProvider('small', 2)];
  const engine = new RouterEngine<EngineProvider>({ clock, providers, settings: DEFAULT_ROUTER_SETTINGS });
  const probes = new ProviderProbes(
    providers.map((p) => p.config),
    { clock, timeoutMs: 1_000, env: {} },
  );
  const lease = (await engine.acquire({ pin: 'open' })).succeed(5);

  const status = gatewayStatus(engine, probes, []);
  assert.equal(NO_LIMIT, -1);
  assert.deepEqual(
    status.providers.map((p) => [p.id, p.active, p.maxConcurrent]),
    [
      ['open', 1, -1],
      ['small', 0, 2],
    ],
  );
  for (const p of status.providers) assert.ok(Number.isInteger(p.maxConcurrent), `${p.id}: ${p.maxConcurrent}`);
  lease.release();
});
