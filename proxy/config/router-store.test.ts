// The RouterStore and the HealthChecker that follows it, with a router loader in place of the
// database and a fake clock: a deleted router is forgotten and no longer probed; a provider whose
// configuration changed starts afresh (health, cooldown), and a check of its old configuration
// that lands afterwards does not mark it down again; a get() right after a change sees it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_ROUTER_SETTINGS, FakeClock } from '../engine';
import { HealthChecker, type HealthReport } from '../health/health-checker';
import { RouterStore, type LoadedRouter, type RuntimeProvider } from './router-store';

const provider = (id: string, url: string, updatedAt = 1): RuntimeProvider => ({
  id,
  slug: id,
  name: id,
  priority: 100,
  weight: 100,
  maxConcurrent: null,
  advertisedMaxConcurrent: null,
  profileId: null,
  providerKind: 'generic',
  adapterKind: null,
  url,
  headers: {},
  credentials: null,
  options: {},
  updatedAt,
  canRecord: true,
});

const router = (id: string, providers: RuntimeProvider[], healthCheckIntervalMs = 1_000): LoadedRouter => ({
  id,
  workspaceId: 'w1',
  settings: { ...DEFAULT_ROUTER_SETTINGS, cooldownMinRequestVolume: 1 },
  connectionTimeoutMs: 10_000,
  sessionIdleTimeoutMs: 300_000,
  healthCheckIntervalMs,
  switches: { webhooksEnabled: true, profilesEnabled: true, replayEnabled: true, observabilityEnabled: true },
  agent: { recordDefault: false, observabilityDefault: false, defaultProfile: null, saveProfileDefault: false },
  traceRedactNames: new Set(),
  providers,
});

function setup(rows: Map<string, LoadedRouter>) {
  const clock = new FakeClock(0);
  const probes: string[] = [];
  const verdicts = new Map<string, boolean>();
  const store = new RouterStore(async (id) => {
    const row = rows.get(id);
    return row ? structuredClone(row) : null;
  });
  const health = new HealthChecker({
    clock,
    check: async (p): Promise<HealthReport> => {
      probes.push(`${p.id}@${p.url}`);
      return { healthy: verdicts.get(p.url!) ?? true };
    },
  });
  health.follow(store);
  return { clock, probes, verdicts, store, health };
}

const settle = () => new Promise((r) => setImmediate(r));

test('a deleted router is forgotten: its engine closed, no further health probes', async () => {
  const rows = new Map([
    ['r1', router('r1', [provider('a', 'ws://a')])],
    ['r2', router('r2', [provider('b', 'ws://b')])],
  ]);
  const { clock, probes, store, health } = setup(rows);
  const r1 = await store.get('r1');
  await store.get('r2');
  clock.advance(3_000);
  await settle();
  assert.deepEqual(probes.filter((p) => p.startsWith('a@')).length, 3);
  assert.equal(health.watching, 2);

  rows.delete('r1');
  await store.refresh('r1');
  probes.length = 0;
  clock.advance(10_000);
  await settle();
  assert.equal(probes.filter((p) => p.startsWith('a@')).length, 0, 'no probe of the deleted router');
  assert.equal(probes.filter((p) => p.startsWith('b@')).length, 10, 'the other router is still checked');
  assert.equal(health.watching, 1);
  assert.equal((await store.all()).length, 1);
  await assert.rejects(r1!.engine.acquire(), /closed/);
  assert.equal(await store.get('r1'), null);
});

test('a provider whose configuration changed is usable at once: cooldown and health verdict dropped', async () => {
  const rows = new Map([['r1', router('r1', [provider('a', 'ws://dead'), provider('b', 'ws://b')])]]);
  const { clock, store, verdicts } = setup(rows);
  const runtime = (await store.get('r1'))!;
  // One failed attempt puts it in cooldown (min volume 1); a health check marks it down as well.
  const reservation = await runtime.engine.acquire({ pin: 'a' });
  reservation.fail('connection refused');
  verdicts.set('ws://dead', false);
  clock.advance(1_000);
  await settle();
  const status = () => runtime.engine.status().find((s) => s.id === 'a')!;
  assert.equal(status().healthy, false);
  await assert.rejects(runtime.engine.acquire({ pin: 'a' }), (e: Error & { code?: string }) => e.code === 'pinned_unavailable');

  // A change to another provider leaves it as it was.
  rows.set('r1', router('r1', [provider('a', 'ws://dead'), provider('b', 'ws://b2', 2)]));
  await store.refresh('r1');
  assert.equal(status().healthy, false);

  rows.set('r1', router('r1', [provider('a', 'ws://fixed', 2), provider('b', 'ws://b2', 2)]));
  await store.refresh('r1');
  assert.equal(status().healthy, true);
  assert.equal(status().cooldownUntil, null);
  const pinned = await runtime.engine.acquire({ pin: 'a' });
  assert.equal(pinned.provider.url, 'ws://fixed');
  pinned.cancel();
});

test('a health check of the old address that lands after the change does not mark the fixed provider down', async () => {
  const rows = new Map([['r1', router('r1', [provider('a', 'ws://dead')])]]);
  const clock = new FakeClock(0);
  let release!: () => void;
  const store = new RouterStore(async (id) => structuredClone(rows.get(id) ?? null));
  const health = new HealthChecker({
    clock,
    check: (p) => (p.url === 'ws://dead' ? new Promise((r) => (release = () => r({ healthy: false }))) : Promise.resolve({ healthy: true })),
  });
  health.follow(store);
  const runtime = (await store.get('r1'))!;
  clock.advance(1_000); // the check of ws://dead starts and hangs
  rows.set('r1', router('r1', [provider('a', 'ws://fixed', 2)]));
  await store.refresh('r1');
  release();
  await settle();
  assert.equal(runtime.engine.status()[0]!.healthy, true);
  health.stop();
});

test('get() right after a change notification waits for the refresh', async () => {
  const rows = new Map([['r1', router('r1', [provider('a', 'ws://one')])]]);
  const { store } = setup(rows);
  await store.get('r1');
  rows.set('r1', router('r1', [provider('a', 'ws://two', 2)]));
  void store.refresh('r1');
  const runtime = await store.get('r1');
  assert.equal(runtime!.providers[0]!.url, 'ws://two');
});
