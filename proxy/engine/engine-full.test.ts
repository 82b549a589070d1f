// A provider answering "at capacity" (Reservation.full) is full, not failing: no cooldown, the next
// free provider or the queue, and back in the rotation on a slot release, a capacity report or
// after FULL_RETRY_MS.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FULL_RETRY_MS } from './engine';
import { isEngineError } from './errors';
import { flush, provider, settings, setup, track } from './testing';

// A cooldown would start on the very first failure: any failure counted shows at once.
const touchy = { strategy: 'priority-chain' as const, cooldownMinRequestVolume: 1, cooldownFailureThreshold: 0 };

test('full() is not a failure: no cooldown, no attempt listed, the next provider of the order', async () => {
  const { engine } = setup([provider('pool', { priority: 1 }), provider('b', { priority: 2 })], touchy);
  const cooldowns: string[] = [];
  engine.onCooldown((id) => cooldowns.push(id));
  const r = await engine.acquire();
  assert.equal(r.provider.id, 'pool');
  const next = await r.full();
  assert.equal(next.provider.id, 'b');
  assert.deepEqual(next.attempts, []);
  assert.deepEqual(cooldowns, []);
  const [pool] = engine.status();
  assert.equal(pool!.healthy, true);
  assert.equal(pool!.cooldownUntil, null);
  assert.equal(pool!.full, true);
  assert.equal(pool!.active, 0, 'the full attempt gave its slot back');
  next.succeed(10).release();
});

test('the same sequence as fail() would put the provider in cooldown', async () => {
  // The contrast that makes the test above meaningful.
  const { engine } = setup([provider('pool', { priority: 1 }), provider('b', { priority: 2 })], touchy);
  const r = await engine.acquire();
  r.fail('upgrade rejected with HTTP 503')!.cancel();
  assert.notEqual(engine.status()[0]!.cooldownUntil, null);
});

test('nothing else free: the connection waits in the queue; the full provider is back after FULL_RETRY_MS', async () => {
  // A managed provider advertising one session, all of it taken elsewhere (another router).
  const { clock, engine } = setup([provider('pool', { advertisedMaxConcurrent: 1 })], { ...touchy, queueTimeoutMs: 30_000 });
  const r = await engine.acquire();
  const waiting = track(r.full());
  await flush();
  assert.equal(waiting.settled, false);
  assert.equal(engine.queueLength, 1);
  // A new arrival is not dispatched to the full provider either: it queues behind.
  const later = track(engine.acquire());
  await flush();
  assert.equal(later.settled, false);
  assert.equal(engine.queueLength, 2);

  clock.advance(FULL_RETRY_MS - 1);
  await flush();
  assert.equal(waiting.settled, false);
  clock.advance(1);
  await flush();
  assert.equal(waiting.value?.provider.id, 'pool', 'the connection that waited longest goes first');
  assert.equal(later.settled, false, 'the other still waits: the one slot is held again');
  assert.equal(engine.status()[0]!.cooldownUntil, null);
});

test('a slot released on the provider in this engine brings it back at once', async () => {
  const { engine } = setup([provider('pool')], touchy);
  const session = (await engine.acquire()).succeed(5);
  const r = await engine.acquire();
  const waiting = track(r.full());
  await flush();
  assert.equal(waiting.settled, false);
  session.release();
  await flush();
  assert.equal(waiting.value?.provider.id, 'pool');
});

test('capacityFreed() (a capacity report with room) brings it back at once', async () => {
  const { engine } = setup([provider('pool')], touchy);
  const waiting = track((await engine.acquire()).full());
  await flush();
  engine.capacityFreed('other');
  await flush();
  assert.equal(waiting.settled, false);
  engine.capacityFreed('pool');
  await flush();
  assert.equal(waiting.value?.provider.id, 'pool');
  assert.equal(engine.status()[0]!.full, false);
});

test('repeated full answers never keep a connection past its queue timeout', async () => {
  const { clock, engine } = setup([provider('pool')], { ...touchy, queueTimeoutMs: 2_500 });
  let r = await engine.acquire();
  let pending = r.full();
  // Every FULL_RETRY_MS the connection is handed the provider again and is told "full" again.
  for (let i = 0; i < 2; i++) {
    clock.advance(FULL_RETRY_MS);
    r = await pending;
    pending = r.full();
  }
  const outcome = track(pending);
  clock.advance(499);
  await flush();
  assert.equal(outcome.settled, false);
  clock.advance(1);
  await flush();
  assert.ok(isEngineError(outcome.error, 'queue_timeout'), String(outcome.error));
  assert.equal(outcome.error?.reason, 'full', 'a full provider makes it a 429, not "unavailable"');
  assert.equal(outcome.error?.waitedMs, 2_500);
  assert.equal(engine.status()[0]!.cooldownUntil, null);
  assert.equal(engine.status()[0]!.active, 0);
});

test('a connection that queued before keeps its deadline and its place after a full answer', async () => {
  const { clock, engine } = setup([provider('pool', { maxConcurrent: 1 })], { ...touchy, queueTimeoutMs: 10_000 });
  const holder = await engine.acquire();
  const first = track(engine.acquire());
  clock.advance(1_000);
  const second = track(engine.acquire());
  holder.cancel();
  await flush();
  const r = first.value!;
  assert.equal(r.waitedMs, 1_000);
  const again = track(r.full());
  await flush();
  assert.equal(second.settled, false, 'the full mark holds everyone back');
  clock.advance(FULL_RETRY_MS);
  await flush();
  assert.equal(again.value?.provider.id, 'pool', 'the older connection is served before the one that queued after it');
  assert.equal(again.value?.waitedMs, 1_000 + FULL_RETRY_MS);
  assert.equal(second.settled, false);
  again.value!.cancel();
  await flush();
  assert.equal(second.value?.provider.id, 'pool');
});

test('providers that failed on the chain stay out after the wait; their attempts are kept', async () => {
  const { clock, engine } = setup([provider('a', { priority: 1 }), provider('pool', { priority: 2 })], {
    strategy: 'priority-chain',
    cooldownFailureThreshold: 1,
  });
  const r = await engine.acquire();
  assert.equal(r.provider.id, 'a');
  const onPool = r.fail('connection refused')!;
  assert.equal(onPool.provider.id, 'pool');
  const waiting = track(onPool.full());
  await flush();
  assert.equal(waiting.settled, false, 'a is free but failed for this connection');
  clock.advance(FULL_RETRY_MS);
  await flush();
  assert.equal(waiting.value?.provider.id, 'pool');
  assert.deepEqual(
    waiting.value?.attempts.map((a) => a.providerId),
    ['a'],
  );
  assert.equal(waiting.value?.fail('refused'), null, 'a is not tried again on this chain');
});

test('pinned: a full answer is pinned_unavailable (full) at once, and so is a pin while marked', async () => {
  const { engine } = setup([provider('pool'), provider('b')], touchy);
  const r = await engine.acquire({ pin: 'pool' });
  await assert.rejects(r.full(), (e) => isEngineError(e, 'pinned_unavailable') && e.reason === 'full');
  await assert.rejects(engine.acquire({ pin: 'pool-slug' }), (e) => isEngineError(e, 'pinned_unavailable') && e.reason === 'full');
  assert.equal(engine.status()[0]!.cooldownUntil, null);
  assert.equal((await engine.acquire({ pin: 'b' })).provider.id, 'b');
});

test('queue off → no_free_provider (full); queue full → queue_full; no slot is leaked', async () => {
  const off = setup([provider('pool')], { ...touchy, queueMaxSize: 0 });
  await assert.rejects((await off.engine.acquire()).full(), (e) => isEngineError(e, 'no_free_provider') && e.reason === 'full');
  assert.equal(off.engine.status()[0]!.active, 0);

  const small = setup([provider('pool', { maxConcurrent: 2 })], { ...touchy, queueMaxSize: 1 });
  const a = await small.engine.acquire();
  const b = await small.engine.acquire();
  const queued = track(small.engine.acquire());
  await a.full().catch(() => {});
  await assert.rejects(b.full(), (e) => isEngineError(e, 'queue_full'));
  assert.equal(small.engine.queueLength, 1);
  assert.equal(queued.settled, false);
  assert.equal(small.engine.status()[0]!.active, 0);
});

test('abort while waiting after a full answer: aborted, no slot or timer left behind', async () => {
  const { clock, engine } = setup([provider('pool')], touchy);
  const controller = new AbortController();
  const waiting = track((await engine.acquire()).full({ signal: controller.signal }));
  await flush();
  controller.abort();
  await flush();
  assert.ok(isEngineError(waiting.error, 'aborted'));
  assert.equal(engine.queueLength, 0);
  clock.advance(FULL_RETRY_MS);
  assert.equal(clock.pendingTimers, 0);
  assert.equal(engine.status()[0]!.active, 0);
});

test('a late timer does not extend the full mark (it is computed from the time)', async () => {
  const { clock, engine } = setup([provider('pool'), provider('b')], touchy);
  const r = await engine.acquire();
  assert.equal(r.provider.id, 'pool');
  (await r.full()).cancel();
  clock.jump(FULL_RETRY_MS);
  assert.equal(engine.status()[0]!.full, false);
  assert.equal((await engine.acquire()).provider.id, 'pool');
});

test('update() keeps the mark of a provider that stays and drops that of one removed', async () => {
  const { clock, engine } = setup([provider('pool'), provider('b')], touchy);
  (await (await engine.acquire()).full()).cancel();
  engine.update(settings(touchy), [provider('pool'), provider('b')]);
  assert.equal(engine.status()[0]!.full, true);
  engine.update(settings(touchy), [provider('b')]);
  engine.update(settings(touchy), [provider('pool'), provider('b')]);
  assert.equal(engine.status()[0]!.full, false);
  clock.advance(FULL_RETRY_MS);
  assert.equal(clock.pendingTimers, 0);
});
