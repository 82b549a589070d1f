// The router queue: FIFO order, who may overtake whom, deadlines, refusals at once and the queue's limits.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isEngineError } from './errors';
import { flush, provider, setup, track } from './testing';

test('waiters are served in FIFO order as slots free', async () => {
  const { engine } = setup([provider('a', { maxConcurrent: 1 })]);
  const first = (await engine.acquire()).succeed(1);
  const waiters = [track(engine.acquire()), track(engine.acquire()), track(engine.acquire())];
  await flush();
  assert.equal(engine.queueLength, 3);
  first.release();
  await flush();
  assert.deepEqual(
    waiters.map((w) => w.settled),
    [true, false, false],
  );
  waiters[0]!.value!.cancel();
  await flush();
  assert.deepEqual(
    waiters.map((w) => w.settled),
    [true, true, false],
  );
  waiters[1]!.value!.fail('refused'); // exhausted (single provider), frees the slot
  await flush();
  assert.deepEqual(
    waiters.map((w) => w.settled),
    [true, true, true],
  );
  assert.equal(engine.queueLength, 0);
});

test('a freed slot goes to the head waiter, not to a new arrival', async () => {
  const { engine } = setup([provider('a', { maxConcurrent: 1 })]);
  const lease = (await engine.acquire()).succeed(1);
  const waiter = track(engine.acquire());
  lease.release();
  // Same tick, before the waiter's continuation runs: the slot is already reserved for it.
  const newcomer = track(engine.acquire());
  await flush();
  assert.equal(waiter.value?.provider.id, 'a');
  assert.equal(newcomer.settled, false);
  assert.equal(engine.queueLength, 1);
  assert.equal(engine.status()[0]!.active, 1);
});

test('a new arrival does not overtake a waiter whose slot freed through an un-fired cooldown end', async () => {
  const { engine, clock } = setup([provider('a', { maxConcurrent: 1 })], { cooldownMinRequestVolume: 1, cooldownDefaultMs: 1000 });
  (await engine.acquire()).fail('refused');
  const waiter = track(engine.acquire());
  await flush();
  assert.equal(waiter.settled, false);
  clock.jump(1000); // the cooldown is over but its timer has not run yet
  const newcomer = track(engine.acquire());
  await flush();
  assert.equal(waiter.value?.provider.id, 'a');
  assert.equal(newcomer.settled, false);
  assert.equal(engine.queueLength, 1);
});

test('a pinned request does not overtake a waiter either', async () => {
  const { engine, clock } = setup([provider('a', { maxConcurrent: 1 })], { cooldownMinRequestVolume: 1, cooldownDefaultMs: 1000 });
  (await engine.acquire()).fail('refused');
  const waiter = track(engine.acquire());
  clock.jump(1000);
  await assert.rejects(engine.acquire({ pin: 'a' }), (e) => isEngineError(e, 'pinned_unavailable') && e.reason === 'full');
  await flush();
  assert.equal(waiter.value?.provider.id, 'a');
});

test('a failover does not take a slot a waiter could use', async () => {
  const { engine, clock } = setup([provider('a', { priority: 1 }), provider('b', { priority: 2, maxConcurrent: 1 })], {
    strategy: 'priority-chain',
    cooldownMinRequestVolume: 1,
    cooldownDefaultMs: 1000,
  });
  (await engine.acquire({ pin: 'b' })).fail('refused'); // b cooling
  const r = await engine.acquire({ eligible: (p) => p.id === 'a' || p.id === 'b' });
  assert.equal(r.provider.id, 'a');
  const waitsForB = track(engine.acquire({ eligible: (p) => p.id === 'b' }));
  clock.jump(1000); // b is back, its wake-up has not run
  assert.equal(r.fail('refused'), null);
  await flush();
  assert.equal(waitsForB.value?.provider.id, 'b');
});

test('a queue deadline that coincides with a cooldown end serves the waiter', async () => {
  const { engine, clock } = setup([provider('a', { maxConcurrent: 1 })], {
    cooldownMinRequestVolume: 1,
    cooldownFailureThreshold: 0,
    cooldownDefaultMs: 1000,
    queueTimeoutMs: 1000,
  });
  const r = await engine.acquire();
  const waiter = track(engine.acquire()); // its deadline timer is older than the cooldown's
  r.fail('refused');
  clock.advance(1000);
  await flush();
  assert.equal(waiter.value?.provider.id, 'a');
});

test('a new arrival that can use a different free provider is not held behind waiters', async () => {
  const { engine } = setup([provider('a', { maxConcurrent: 1 }), provider('b', { maxConcurrent: 1 })]);
  await engine.acquire({ eligible: (p) => p.id === 'a' });
  const waitsForA = track(engine.acquire({ eligible: (p) => p.id === 'a' }));
  const r = await engine.acquire();
  assert.equal(r.provider.id, 'b');
  assert.equal(waitsForA.settled, false);
});

test('a waiter that cannot use the freed provider lets a later waiter have it', async () => {
  const { engine } = setup([provider('a', { maxConcurrent: 1 }), provider('b', { maxConcurrent: 1 })]);
  const a = (await engine.acquire({ pin: 'a' })).succeed(1);
  (await engine.acquire({ pin: 'b' })).succeed(1);
  const onlyB = track(engine.acquire({ eligible: (p) => p.id === 'b' }));
  const any = track(engine.acquire());
  a.release();
  await flush();
  assert.equal(onlyB.settled, false);
  assert.equal(any.value?.provider.id, 'a');
});

test('queue timeout rejects with queue_timeout and the time waited', async () => {
  const { engine, clock } = setup([provider('a', { maxConcurrent: 1 })], { queueTimeoutMs: 5000 });
  await engine.acquire();
  const p = engine.acquire();
  clock.advance(4999);
  await flush();
  assert.equal(engine.queueLength, 1);
  clock.advance(1);
  await assert.rejects(p, (e) => isEngineError(e, 'queue_timeout') && e.waitedMs === 5000 && e.reason === 'full');
  assert.equal(engine.queueLength, 0);
  assert.equal(clock.pendingTimers, 0);
});

test('nothing can free a slot before the deadline (every eligible provider unhealthy, or cooling past it): no_free_provider at once, nothing queued', async () => {
  const { engine, clock } = setup([provider('a'), provider('b')], { queueTimeoutMs: 5_000, cooldownMinRequestVolume: 1, cooldownDefaultMs: 10_000 });
  engine.setHealthy('a', false);
  assert.equal((await engine.acquire({ eligible: (p) => p.id === 'b' })).fail('refused'), null);
  await assert.rejects(engine.acquire(), (e) => isEngineError(e, 'no_free_provider') && e.reason === 'unavailable');
  assert.equal(engine.queueLength, 0);
  assert.equal(clock.pendingTimers, 1, "only b's cooldown timer");
  // b's cooldown ends 1 ms before the deadline of a connection that arrives now: that one waits for it.
  clock.advance(5_001);
  const waiter = track(engine.acquire());
  await flush();
  assert.equal(engine.queueLength, 1);
  clock.advance(4_999);
  await flush();
  assert.equal(waiter.value?.provider.id, 'b');
});

test('a full queue rejects with queue_full', async () => {
  const { engine } = setup([provider('a', { maxConcurrent: 1 })], { queueMaxSize: 2 });
  await engine.acquire();
  track(engine.acquire());
  track(engine.acquire());
  await assert.rejects(engine.acquire(), (e) => isEngineError(e, 'queue_full') && e.reason === 'full');
  assert.equal(engine.queueLength, 2);
});

test('queueMaxSize 0 (or queueTimeoutMs 0) never waits: no_free_provider with the reason', async () => {
  const { engine } = setup([provider('a', { maxConcurrent: 1 }), provider('b')], { queueMaxSize: 0 });
  engine.setHealthy('b', false);
  await engine.acquire();
  await assert.rejects(engine.acquire(), (e) => isEngineError(e, 'no_free_provider') && e.reason === 'full');
  engine.setHealthy('a', false);
  await assert.rejects(engine.acquire(), (e) => isEngineError(e, 'no_free_provider') && e.reason === 'unavailable');
  const zeroTimeout = setup([provider('a', { maxConcurrent: 1 })], { queueTimeoutMs: 0 });
  await zeroTimeout.engine.acquire();
  await assert.rejects(zeroTimeout.engine.acquire(), (e) => isEngineError(e, 'no_free_provider'));
  assert.equal(engine.queueLength, 0);
});
