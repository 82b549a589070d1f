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
