import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isEngineError } from './errors';
import { provider, settings, setup } from './testing';

test('maxConcurrent is never exceeded; a full provider is skipped, not attempted', async () => {
  const { engine } = setup([provider('a', { maxConcurrent: 2, priority: 1 }), provider('b', { maxConcurrent: 1, priority: 2 })], {
    strategy: 'priority-chain',
    queueMaxSize: 0,
  });
  const got = [];
  for (let i = 0; i < 3; i++) got.push((await engine.acquire()).provider.id);
  assert.deepEqual(got, ['a', 'a', 'b']);
  await assert.rejects(engine.acquire(), (e) => isEngineError(e, 'no_free_provider') && e.reason === 'full');
  assert.deepEqual(
    engine.status().map((s) => [s.id, s.active, s.maxConcurrent]),
    [
      ['a', 2, 2],
      ['b', 1, 1],
    ],
  );
});

test('advertisedMaxConcurrent applies when maxConcurrent is null; maxConcurrent wins when set', async () => {
  const { engine } = setup([provider('managed', { advertisedMaxConcurrent: 2 }), provider('explicit', { maxConcurrent: 1, advertisedMaxConcurrent: 10 })], {
    strategy: 'priority-chain',
    queueMaxSize: 0,
  });
  const got = [];
  for (let i = 0; i < 3; i++) got.push((await engine.acquire()).provider.id);
  assert.deepEqual(got, ['managed', 'managed', 'explicit']);
  await assert.rejects(engine.acquire(), (e) => isEngineError(e, 'no_free_provider'));
  assert.deepEqual(
    engine.status().map((s) => s.maxConcurrent),
    [2, 1],
  );
});

test('no limit at all: unlimited', async () => {
  const { engine } = setup([provider('a')]);
  for (let i = 0; i < 500; i++) await engine.acquire();
  assert.equal(engine.status()[0]!.active, 500);
  assert.equal(engine.status()[0]!.maxConcurrent, null);
});

test('the slot is held from reservation through the session and freed once', async () => {
  const { engine } = setup([provider('a', { maxConcurrent: 1 })], { queueMaxSize: 0 });
  const r = await engine.acquire();
  assert.equal(engine.status()[0]!.active, 1);
  const lease = r.succeed(120);
  assert.equal(engine.status()[0]!.active, 1);
  await assert.rejects(engine.acquire(), (e) => isEngineError(e, 'no_free_provider'));
  lease.release();
  lease.release();
  r.cancel(); // settled already: no effect
  assert.equal(engine.status()[0]!.active, 0);
  assert.throws(() => r.succeed(1), /already settled/);
  assert.throws(() => r.fail('x'), /already settled/);
});

test('cancel frees the slot without recording an outcome', async () => {
  const { engine } = setup([provider('a', { maxConcurrent: 1 })], { cooldownMinRequestVolume: 0, cooldownFailureThreshold: 0 });
  for (let i = 0; i < 10; i++) (await engine.acquire()).cancel();
  assert.equal(engine.status()[0]!.healthy, true);
  assert.equal(engine.status()[0]!.active, 0);
  assert.equal(engine.status()[0]!.latencyMs, null);
});

test('lowering maxConcurrent below the running count admits nobody until it drains', async () => {
  const { engine } = setup([provider('a', { maxConcurrent: 3 })], { queueMaxSize: 0 });
  const leases = [];
  for (let i = 0; i < 3; i++) leases.push((await engine.acquire()).succeed(1));
  engine.update(settings({ queueMaxSize: 0 }), [provider('a', { maxConcurrent: 1 })]);
  leases[0]!.release();
  await assert.rejects(engine.acquire(), (e) => isEngineError(e, 'no_free_provider'));
  leases[1]!.release();
  await assert.rejects(engine.acquire(), (e) => isEngineError(e, 'no_free_provider'));
  leases[2]!.release();
  assert.equal((await engine.acquire()).provider.id, 'a');
});

test('a removed provider keeps its running sessions counted if it comes back', async () => {
  const a = provider('a', { maxConcurrent: 1 });
  const { engine } = setup([a, provider('b')], { strategy: 'priority-chain', queueMaxSize: 0 });
  const lease = (await engine.acquire()).succeed(1);
  assert.equal(lease.provider.id, 'a');
  const s = settings({ strategy: 'priority-chain', queueMaxSize: 0 });
  engine.update(s, [provider('b')]);
  engine.update(s, [a, provider('b')]);
  assert.equal((await engine.acquire()).provider.id, 'b');
  lease.release();
  assert.equal((await engine.acquire()).provider.id, 'a');
});

test('unhealthy providers are not routed to; healthy again puts them back', async () => {
  const { engine } = setup([provider('a'), provider('b')], { strategy: 'priority-chain' });
  engine.setHealthy('a', false);
  assert.equal(engine.status()[0]!.healthy, false);
  assert.equal(engine.status()[0]!.cooldownUntil, null);
  assert.equal((await engine.acquire()).provider.id, 'b');
  await assert.rejects(engine.acquire({ pin: 'a' }), (e) => isEngineError(e, 'pinned_unavailable') && e.reason === 'unavailable');
  engine.setHealthy('a', true);
  assert.equal((await engine.acquire()).provider.id, 'a');
});

test('duplicate ids or slugs in the configuration are refused', () => {
  assert.throws(() => setup([provider('a'), provider('a', { slug: 'other' })]), /duplicate provider id/);
  assert.throws(() => setup([provider('a', { slug: 's' }), provider('b', { slug: 's' })]), /duplicate provider slug/);
});
