import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isEngineError } from './errors';
import { flush, provider, settings, setup, track } from './testing';

const chain = () => [provider('a', { priority: 1 }), provider('b', { priority: 2 }), provider('c', { priority: 3 }), provider('d', { priority: 4 })];

test('fail() moves to the next provider of the strategy order', async () => {
  const { engine } = setup(chain(), { strategy: 'priority-chain' });
  const r1 = await engine.acquire();
  assert.equal(r1.provider.id, 'a');
  const r2 = r1.fail('connection refused')!;
  assert.equal(r2.provider.id, 'b');
  assert.deepEqual(r2.attempts, [{ providerId: 'a', slug: 'a-slug', reason: 'connection refused' }]);
  const lease = r2.succeed(80);
  assert.deepEqual(
    engine.status().map((s) => s.active),
    [0, 1, 0, 0],
  );
  lease.release();
});

test('failover skips providers that are full or cooling at that moment', async () => {
  const ps = chain();
  ps[1] = provider('b', { priority: 2, maxConcurrent: 1 });
  const { engine } = setup(ps, { strategy: 'priority-chain', cooldownMinRequestVolume: 1 });
  await engine.acquire({ pin: 'b' }); // b full
  (await engine.acquire({ pin: 'c' })).fail('refused'); // c cooling
  const r = await engine.acquire();
  assert.equal(r.provider.id, 'a');
  const next = r.fail('timeout')!;
  assert.equal(next.provider.id, 'd');
});

test('exhausted chain returns null and lists every attempt in order', async () => {
  const { engine } = setup(chain(), { strategy: 'priority-chain', cooldownFailureThreshold: 1 });
  let r = await engine.acquire();
  const reasons = ['refused', 'timeout', 'upgrade rejected', 'refused'];
  for (const reason of reasons.slice(0, 3)) r = r.fail(reason)!;
  const last = r;
  assert.equal(last.fail(reasons[3]!), null);
  assert.deepEqual(
    last.attempts.map((a) => [a.providerId, a.reason]),
    [
      ['a', 'refused'],
      ['b', 'timeout'],
      ['c', 'upgrade rejected'],
      ['d', 'refused'],
    ],
  );
  assert.deepEqual(
    engine.status().map((s) => s.active),
    [0, 0, 0, 0],
  );
});

test('a provider full at first but free by the time of failover is tried', async () => {
  const ps = [provider('a', { priority: 1 }), provider('b', { priority: 2, maxConcurrent: 1 })];
  const { engine } = setup(ps, { strategy: 'priority-chain', cooldownFailureThreshold: 1 });
  const holdB = await engine.acquire({ pin: 'b' });
  const r = await engine.acquire();
  assert.equal(r.provider.id, 'a');
  holdB.cancel();
  assert.equal(r.fail('refused')?.provider.id, 'b');
});

test('failover follows the round-robin order from where it started', async () => {
  const { engine } = setup([provider('a'), provider('b'), provider('c')], { strategy: 'round-robin', cooldownFailureThreshold: 1 });
  (await engine.acquire()).cancel(); // rotation now starts at b
  const r = await engine.acquire();
  assert.equal(r.provider.id, 'b');
  const r2 = r.fail('x')!;
  assert.equal(r2.provider.id, 'c');
  assert.equal(r2.fail('x')!.provider.id, 'a');
});

test('failover re-checks eligibility against the current configuration', async () => {
  const { engine } = setup([provider('a'), provider('b'), provider('c')], { strategy: 'priority-chain', cooldownFailureThreshold: 1 });
  const onlyPinned = (p: { slug: string }) => p.slug !== 'b-blocked';
  const r = await engine.acquire({ eligible: onlyPinned });
  engine.update(settings({ strategy: 'priority-chain', cooldownFailureThreshold: 1 }), [provider('a'), provider('b', { slug: 'b-blocked' }), provider('c')]);
  assert.equal(r.fail('x')?.provider.id, 'c');
});

test('a failure freeing a slot serves the queue before the failover looks for its next provider', async () => {
  const { engine } = setup([provider('a', { maxConcurrent: 1 })], { cooldownFailureThreshold: 1 });
  const r = await engine.acquire();
  const waiter = track(engine.acquire());
  assert.equal(r.fail('refused'), null);
  await flush();
  assert.equal(waiter.value?.provider.id, 'a');
});

test('cooldown entered on a failure is reported after the chain moved on', async () => {
  const { engine } = setup(chain(), { strategy: 'priority-chain', cooldownMinRequestVolume: 1 });
  const events: string[] = [];
  engine.onCooldown((id) => events.push(`${id}:${engine.status().find((s) => s.id === id)!.active}`));
  const r = await engine.acquire();
  const next = r.fail('refused');
  assert.equal(next?.provider.id, 'b');
  assert.deepEqual(events, ['a:0']);
});

test('pinning: by id or slug, no failover', async () => {
  const { engine } = setup(chain(), { strategy: 'priority-chain', cooldownFailureThreshold: 1 });
  const byId = await engine.acquire({ pin: 'c' });
  assert.equal(byId.provider.id, 'c');
  assert.equal(byId.fail('refused'), null);
  assert.equal(byId.attempts.length, 1);
  const bySlug = await engine.acquire({ pin: 'd-slug' });
  assert.equal(bySlug.provider.id, 'd');
});

test('pinning: unknown provider is pinned_not_found', async () => {
  const { engine } = setup(chain());
  await assert.rejects(engine.acquire({ pin: 'zzz' }), (e) => isEngineError(e, 'pinned_not_found'));
});

test('pinning: full gives pinned_unavailable at once, even with a queue', async () => {
  const { engine } = setup([provider('a', { maxConcurrent: 1 }), provider('b')]);
  await engine.acquire({ pin: 'a' });
  await assert.rejects(engine.acquire({ pin: 'a' }), (e) => isEngineError(e, 'pinned_unavailable') && e.reason === 'full' && e.providerId === 'a');
  assert.equal(engine.queueLength, 0);
});

test('pinning: cooling gives pinned_unavailable (unavailable)', async () => {
  const { engine } = setup([provider('a'), provider('b')], { cooldownMinRequestVolume: 1 });
  (await engine.acquire({ pin: 'a' })).fail('refused');
  await assert.rejects(engine.acquire({ pin: 'a' }), (e) => isEngineError(e, 'pinned_unavailable') && e.reason === 'unavailable');
});

test('pinning respects eligibility', async () => {
  const { engine } = setup([provider('a'), provider('b')]);
  await assert.rejects(engine.acquire({ pin: 'a', eligible: (p) => p.id === 'b' }), (e) => isEngineError(e, 'none_eligible'));
});

test('no providers configured: no_providers (pinned or not)', async () => {
  const { engine } = setup([]);
  await assert.rejects(engine.acquire(), (e) => isEngineError(e, 'no_providers'));
  await assert.rejects(engine.acquire({ pin: 'a' }), (e) => isEngineError(e, 'no_providers'));
});

test('eligibility: nothing eligible is none_eligible; otherwise only eligible providers are used', async () => {
  const { engine } = setup(chain(), { strategy: 'priority-chain', cooldownFailureThreshold: 1 });
  await assert.rejects(engine.acquire({ eligible: () => false }), (e) => isEngineError(e, 'none_eligible'));
  const odd = (p: { id: string }) => p.id === 'b' || p.id === 'd';
  const r = await engine.acquire({ eligible: odd });
  assert.equal(r.provider.id, 'b');
  assert.equal(r.fail('x')?.provider.id, 'd');
});

test('a refusal because every provider is out names why: the last failed dial or health check of each, until a success or a healthy check', async () => {
  const { engine } = setup([provider('a'), provider('b')], { cooldownMinRequestVolume: 1 });
  const policy = 'refused by the egress policy: 127.0.0.1 is a loopback address, refused under PRIVATE_NETWORK=deny';
  engine.setHealthy('a', false, `health check: ${policy}`);
  (await engine.acquire({ pin: 'b' })).fail(policy);
  const refused = (e: unknown, causes: string[]) =>
    isEngineError(e, 'no_free_provider') && e.reason === 'unavailable' && JSON.stringify(e.causes) === JSON.stringify(causes);
  await assert.rejects(engine.acquire(), (e) => refused(e, [`health check: ${policy}`, policy]));
  await assert.rejects(engine.acquire({ pin: 'b' }), (e) => isEngineError(e, 'pinned_unavailable') && JSON.stringify(e.causes) === JSON.stringify([policy]));

  engine.setHealthy('a', true);
  const lease = (await engine.acquire()).succeed(10);
  lease.release();
  engine.setHealthy('a', false);
  await assert.rejects(engine.acquire(), (e) => refused(e, ['its health check failed', policy]), 'a check without a reason; b still cooling after its dial');
  engine.reset('b');
  engine.setHealthy('a', false, 'health check: connect ECONNREFUSED 127.0.0.1:1');
  const onB = await engine.acquire();
  assert.equal(onB.provider.id, 'b', 'a reset forgets the cooldown and its cause');
  assert.equal(onB.fail('upgrade rejected: 500'), null);
  await assert.rejects(
    engine.acquire(),
    (e) => refused(e, ['health check: connect ECONNREFUSED 127.0.0.1:1', 'upgrade rejected: 500']),
    'new causes replace the old',
  );
});

test('a failure until reset (the egress policy) takes the provider out at once, whatever the cooldown settings, until its reset', async () => {
  const { engine } = setup([provider('a')], { cooldownMinRequestVolume: 100 });
  const policy = 'refused by the egress policy: 127.0.0.1 is a loopback address, refused under PRIVATE_NETWORK=deny';
  assert.equal((await engine.acquire()).fail(policy, { untilReset: true }), null);
  await assert.rejects(
    engine.acquire(),
    (e) => isEngineError(e, 'no_free_provider') && e.reason === 'unavailable' && JSON.stringify(e.causes) === JSON.stringify([policy]),
    'not queued: nothing frees it but a reset',
  );
  assert.equal(engine.status()[0]!.healthy, false);
  engine.reset('a');
  assert.equal((await engine.acquire()).provider.id, 'a');
});
