import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FailureThrottle } from './failure-throttle';

test('blocks an IP after the limit within the window, per IP, until the window moves on', () => {
  const throttle = new FailureThrottle(3, 60_000);
  for (let i = 0; i < 3; i++) {
    assert.equal(throttle.blockedFor('1.1.1.1', 1_000 * i), 0);
    throttle.recordFailure('1.1.1.1', 1_000 * i);
  }
  assert.equal(throttle.blockedFor('1.1.1.1', 3_000), 57);
  assert.equal(throttle.blockedFor('2.2.2.2', 3_000), 0);
  assert.equal(throttle.blockedFor('1.1.1.1', 60_001), 0, 'oldest failure left the window');
});

const hash = (n: number) => n.toString(16).padStart(64, '0');

test('a throttled address: no key, or a key that already failed from it, is never looked up', () => {
  const throttle = new FailureThrottle(3, 60_000);
  for (let i = 0; i < 3; i++) throttle.recordFailure('1.1.1.1', i, hash(i));
  assert.deepEqual(throttle.gate('1.1.1.1', null, 10), { blockedFor: 60, lookup: false });
  assert.deepEqual(throttle.gate('1.1.1.1', hash(1), 10), { blockedFor: 60, lookup: false });
  // Not throttled: a key is looked up, even one that failed before.
  assert.deepEqual(throttle.gate('2.2.2.2', hash(1), 10), { blockedFor: 0, lookup: true });
  assert.deepEqual(throttle.gate('2.2.2.2', null, 10), { blockedFor: 0, lookup: false });
});

test('a throttled address gets a small lookup budget for new keys, refilled once per second', () => {
  const throttle = new FailureThrottle(3, 60_000, { lookupBurst: 2, lookupsPerSecond: 1 });
  for (let i = 0; i < 3; i++) throttle.recordFailure('1.1.1.1', 0);
  const lookups = (from: number, to: number, now: number) => {
    let n = 0;
    for (let k = from; k < to; k++) if (throttle.gate('1.1.1.1', hash(k), now).lookup) n++;
    return n;
  };
  assert.equal(lookups(100, 200, 1_000), 2, 'a flood of new keys: the burst, then nothing');
  assert.equal(lookups(200, 300, 1_500), 0);
  assert.equal(lookups(300, 400, 2_000), 1, 'one more per second');
  assert.equal(lookups(400, 500, 12_000), 2, 'never more than the burst');
});

test("a key that passed (from any address) skips a throttled address's budget; it is still looked up", () => {
  const throttle = new FailureThrottle(3, 60_000, { lookupBurst: 1, lookupsPerSecond: 1 });
  throttle.recordSuccess('9.9.9.9', 0, hash(7)); // used from elsewhere before
  for (let i = 0; i < 3; i++) throttle.recordFailure('1.1.1.1', 0);
  assert.equal(throttle.gate('1.1.1.1', hash(8), 100).lookup, true, 'the one lookup of the budget');
  assert.equal(throttle.gate('1.1.1.1', hash(9), 100).lookup, false, 'budget spent');
  assert.equal(throttle.gate('1.1.1.1', hash(7), 100).lookup, true, 'the known good key still gets its lookup');
  // The same key failing later (revoked) is refused without a lookup from then on.
  throttle.recordFailure('1.1.1.1', 200, hash(7));
  assert.equal(throttle.gate('1.1.1.1', hash(7), 300).lookup, false);
  assert.equal(throttle.gate('2.2.2.2', hash(7), 300).lookup, true, 'an unthrottled address always looks keys up');
});

test('successes create no address state; memory per address is bounded', () => {
  const throttle = new FailureThrottle(3, 60_000);
  throttle.recordSuccess('3.3.3.3', 0, hash(1));
  assert.equal(throttle.size, 0);
  for (let i = 0; i < 1_000; i++) throttle.recordFailure('4.4.4.4', i, hash(i));
  assert.equal(throttle.blockedFor('4.4.4.4', 1_000), 60);
  assert.equal(throttle.gate('4.4.4.4', hash(999), 1_000).lookup, false, 'recent failures are remembered');
});
