// The router queue's waiters woken by what frees capacity (a cooldown's end, health, a new configuration),
// taken out by an abort or close(), and the shared providers' announced slots.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from './clock';
import { FULL_RETRY_MS, RouterEngine } from './engine';
import { isEngineError } from './errors';
import { flush, provider, settings, setup, track } from './testing';

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
  assert.deepEqual(
    [requeued, ...waiters].map((w) => w.settled),
    [true, false, false, false],
    'one try, for the oldest',
  );
  // Its attempt finds it full again (another proxy's waiter won): back to waiting, in its place.
  const again = track(requeued.value!.full());
  await flush();
  assert.equal(engine.queueLength, 4);
  engine.capacityFreed('a', 2);
  await flush();
  assert.deepEqual(
    [again, ...waiters].map((w) => w.settled),
    [true, true, false, false],
  );
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
