import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from './clock';
import { FULL_RETRY_MS, RouterEngine } from './engine';
import { isEngineError } from './errors';
import { flush, provider, settings, setup, track } from './testing';

test('waiters are served in FIFO order as slots free', async () => {
  const { engine } = setup([provider('a', { maxConcurrent: 1 })]);
  const first = (await engine.acquire()).succeed(1);
  const waiters = [track(engine.acquire()), track(engine.acquire()), track(engine.acquire())];
  await flush();
  assert.equal(engine.queueLength, 3);
  first.release();
  await flush();
  assert.deepEqual(waiters.map((w) => w.settled), [true, false, false]);
  waiters[0]!.value!.cancel();
  await flush();
  assert.deepEqual(waiters.map((w) => w.settled), [true, true, false]);
  waiters[1]!.value!.fail('refused'); // exhausted (single provider), frees the slot
  await flush();
  assert.deepEqual(waiters.map((w) => w.settled), [true, true, true]);
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

test('waiters wake when a cooldown ends', async () => {
  const { engine, clock } = setup([provider('a')], { cooldownMinRequestVolume: 1, cooldownDefaultMs: 10_000, queueTimeoutMs: 60_000 });
  assert.equal((await engine.acquire()).fail('refused'), null);
  const waiter = track(engine.acquire());
  clock.advance(9_999);
  await flush();
  assert.equal(waiter.settled, false);
  clock.advance(1);
  await flush();
  assert.equal(waiter.value?.provider.id, 'a');
  assert.equal(waiter.value?.waitedMs, 10_000);
});

test('waiters wake when a provider becomes healthy', async () => {
  // b is full (a session may end, so waiting helps); a recovers first.
  const { engine } = setup([provider('a'), provider('b', { maxConcurrent: 1 })]);
  engine.setHealthy('a', false);
  await engine.acquire();
  const waiter = track(engine.acquire());
  await flush();
  assert.equal(waiter.settled, false);
  engine.setHealthy('a', true);
  await flush();
  assert.equal(waiter.value?.provider.id, 'a');
});

test('waiters wake on update(): more capacity or a new provider', async () => {
  const { engine } = setup([provider('a', { maxConcurrent: 1 })]);
  await engine.acquire();
  const w1 = track(engine.acquire());
  const w2 = track(engine.acquire());
  engine.update(settings(), [provider('a', { maxConcurrent: 2 })]);
  await flush();
  assert.equal(w1.value?.provider.id, 'a');
  assert.equal(w2.settled, false);
  engine.update(settings(), [provider('a', { maxConcurrent: 2 }), provider('c')]);
  await flush();
  assert.equal(w2.value?.provider.id, 'c');
});

test('update() that leaves a waiter with no provider rejects it with config_changed', async () => {
  const { engine, clock } = setup([provider('a', { maxConcurrent: 1 }), provider('b', { maxConcurrent: 1 })]);
  await engine.acquire({ pin: 'a' });
  await engine.acquire({ pin: 'b' });
  const onlyB = engine.acquire({ eligible: (p) => p.id === 'b' });
  const any = track(engine.acquire());
  clock.advance(250);
  engine.update(settings(), [provider('a', { maxConcurrent: 1 })]);
  await assert.rejects(onlyB, (e) => isEngineError(e, 'config_changed') && e.waitedMs === 250);
  await flush();
  assert.equal(any.settled, false);
  assert.equal(engine.queueLength, 1);
});

test('a removed provider is never handed to a waiter', async () => {
  const { engine } = setup([provider('a', { maxConcurrent: 1 }), provider('b', { maxConcurrent: 1 })]);
  const leaseA = (await engine.acquire({ pin: 'a' })).succeed(1);
  await engine.acquire({ pin: 'b' });
  const waiter = track(engine.acquire());
  engine.update(settings(), [provider('b', { maxConcurrent: 1 })]);
  leaseA.release();
  await flush();
  assert.equal(waiter.settled, false);
  assert.equal(engine.status().length, 1);
});

test('abort removes the waiter without leaking a slot or timer', async () => {
  const { engine, clock } = setup([provider('a', { maxConcurrent: 1 })]);
  const lease = (await engine.acquire()).succeed(1);
  const ctrl = new AbortController();
  const aborted = engine.acquire({ signal: ctrl.signal });
  const next = track(engine.acquire());
  clock.advance(42);
  ctrl.abort();
  await assert.rejects(aborted, (e) => isEngineError(e, 'aborted') && e.waitedMs === 42);
  assert.equal(engine.queueLength, 1);
  lease.release();
  await flush();
  assert.equal(next.value?.provider.id, 'a');
  assert.equal(engine.status()[0]!.active, 1);
  assert.equal(clock.pendingTimers, 0);
});

test('an already aborted signal is refused at once; a late abort does not touch the reservation', async () => {
  const { engine } = setup([provider('a', { maxConcurrent: 1 })]);
  const ctrl = new AbortController();
  ctrl.abort();
  await assert.rejects(engine.acquire({ signal: ctrl.signal }), (e) => isEngineError(e, 'aborted'));
  const late = new AbortController();
  const r = await engine.acquire({ signal: late.signal });
  late.abort();
  assert.equal(engine.status()[0]!.active, 1);
  r.cancel();
  assert.equal(engine.status()[0]!.active, 0);
});

test('close() rejects waiters and new requests; held slots still release', async () => {
  const { engine, clock } = setup([provider('a', { maxConcurrent: 1 })], { cooldownMinRequestVolume: 1 });
  const lease = (await engine.acquire()).succeed(1);
  const waiter = engine.acquire();
  engine.close();
  await assert.rejects(waiter, (e) => isEngineError(e, 'closed'));
  await assert.rejects(engine.acquire(), (e) => isEngineError(e, 'closed'));
  lease.release();
  assert.equal(engine.status()[0]!.active, 0);
  assert.equal(clock.pendingTimers, 0);
});

test('shared providers: a provider found full lets one waiter try per slot announced freed, not all of them', async () => {
  const clock = new FakeClock(1_000_000);
  const engine = new RouterEngine({ clock, settings: settings(), providers: [provider('a', { maxConcurrent: 5 })], shared: true });
  // Another proxy holds the provider's slots: the first attempt here is told it is full.
  const first = await engine.acquire();
  const requeued = track(first.full());
  const waiters = [1, 2, 3].map(() => {
    clock.jump(1);
    return track(engine.acquire());
  });
  await flush();
  assert.equal(engine.queueLength, 4, 'nobody dispatched while it is marked full');
  engine.capacityFreed('a', 1);
  await flush();
  assert.deepEqual([requeued, ...waiters].map((w) => w.settled), [true, false, false, false], 'one try, for the oldest');
  // Its attempt finds it full again (another proxy's waiter won): back to waiting, in its place.
  const again = track(requeued.value!.full());
  await flush();
  assert.equal(engine.queueLength, 4);
  engine.capacityFreed('a', 2);
  await flush();
  assert.deepEqual([again, ...waiters].map((w) => w.settled), [true, true, false, false]);
  // A slot released here is announced like any other (no wake-up of its own).
  again.value!.succeed(1).release();
  await flush();
  assert.equal(waiters[1]!.settled, false);
  // Without announcements the full mark still ends after FULL_RETRY_MS.
  clock.advance(FULL_RETRY_MS);
  await flush();
  assert.equal(waiters[1]!.settled && waiters[2]!.settled, true);
});

test('shared providers: a slot announced freed while an attempt was under way is tried after that attempt is told "full"', async () => {
  const clock = new FakeClock(1_000_000);
  const engine = new RouterEngine({ clock, settings: settings(), providers: [provider('a', { maxConcurrent: 1 })], shared: true });
  const attempt = await engine.acquire();
  clock.jump(1);
  const waiter = track(engine.acquire());
  await flush();
  assert.equal(waiter.settled, false, 'the one local slot is taken by the attempt');
  // A session ends on another proxy while the attempt's lease is refused (it raced a third one).
  engine.capacityFreed('a', 1);
  const requeued = track(attempt.full());
  await flush();
  // The oldest waiter tries the announced slot at once (not after FULL_RETRY_MS); the attempt
  // told "full" waits behind it.
  assert.equal(waiter.settled, true);
  assert.equal(requeued.settled, false);
  assert.equal(engine.queueLength, 1);
  waiter.value!.cancel();
});
