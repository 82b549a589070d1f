// reset(): a provider whose configuration changed starts afresh: out of cooldown, its failure
// window and health verdict forgotten, waiters woken; its running slots stay.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { flush, provider, setup, track } from './testing';

test('reset ends the cooldown and the unhealthy verdict of one provider and wakes a waiter', async () => {
  const { clock, engine } = setup([provider('a'), provider('b')], { cooldownMinRequestVolume: 1, queueTimeoutMs: 60_000 });
  (await engine.acquire({ pin: 'a' })).fail('refused');
  engine.setHealthy('b', false);
  assert.equal(engine.status().find((s) => s.id === 'a')!.cooldownUntil, clock.now() + 30_000);
  const waiter = track(engine.acquire());
  await flush();
  assert.equal(waiter.settled, false, 'nothing usable: queued');

  engine.reset('a');
  await flush();
  assert.equal(waiter.value?.provider.id, 'a', 'the waiter gets the fixed provider at once');
  assert.deepEqual(
    engine.status().map((s) => [s.id, s.healthy, s.cooldownUntil]),
    [
      ['a', true, null],
      ['b', false, null],
    ],
  );
  const lease = waiter.value!.succeed(10);
  engine.reset('a');
  assert.equal(engine.status()[0]!.active, 1, 'a running session keeps its slot');
  lease.release();
  assert.equal(engine.status()[0]!.active, 0);
});
