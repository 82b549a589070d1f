import assert from 'node:assert/strict';
import { test } from 'node:test';
import { atCapacityInError, isAtCapacity } from './at-capacity';

test("the pool's at-capacity refusal is recognised by its header or its body; other 503s are not", () => {
  assert.equal(isAtCapacity(503, { 'x-pool-full': '1' }, ''), true);
  assert.equal(isAtCapacity(503, {}, 'pool at capacity (4 sessions)\n'), true);
  assert.equal(isAtCapacity(503, {}, 'pool calibrating'), false);
  assert.equal(isAtCapacity(503, {}, 'pool shutting down'), false);
  assert.equal(isAtCapacity(502, { 'x-pool-full': '1' }, 'pool at capacity (4 sessions)'), false);
});

test("the same refusal inside a CDP client's connect error (body on the line after the status)", () => {
  const message =
    'browserType.connectOverCDP: WebSocket error: ws://127.0.0.1:9600/ 503 Service Unavailable\npool at capacity (1 sessions)\n\nCall log:\n  - <ws connecting> ws://127.0.0.1:9600/';
  assert.equal(atCapacityInError(message), 'pool at capacity (1 sessions)');
  assert.equal(atCapacityInError(message.replace('pool at capacity (1 sessions)', 'pool calibrating')), null);
  assert.equal(atCapacityInError('WebSocket error: connect ECONNREFUSED 127.0.0.1:9600'), null);
});
