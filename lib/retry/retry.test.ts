import { test } from 'node:test';
import assert from 'node:assert/strict';
import { retry } from './retry';

const failing = (failures: number, calls: number[]) => async (attempt: number) => {
  calls.push(attempt);
  if (attempt <= failures) throw new Error(`failure ${attempt}`);
  return `ok on ${attempt}`;
};

test('retries after each delay of the schedule, in order, and answers with the first success', async () => {
  const calls: number[] = [];
  const waits: number[] = [];
  const started = performance.now();
  const result = await retry(failing(2, calls), { delaysMs: [20, 40, 1_000], onRetry: (_error, _attempt, ms) => waits.push(ms) });
  assert.equal(result, 'ok on 3');
  assert.deepEqual(calls, [1, 2, 3]);
  assert.deepEqual(waits, [20, 40]);
  assert.ok(performance.now() - started >= 60, 'it waited the two delays');
});

test('gives up with the last error when the schedule runs out; an empty schedule is one attempt', async () => {
  const calls: number[] = [];
  await assert.rejects(retry(failing(5, calls), { delaysMs: [1, 1] }), /failure 3/);
  assert.deepEqual(calls, [1, 2, 3]);
  const once: number[] = [];
  await assert.rejects(retry(failing(1, once), { delaysMs: [] }), /failure 1/);
  assert.deepEqual(once, [1]);
});

test('a failure the caller says is not retryable ends it at once', async () => {
  const calls: number[] = [];
  await assert.rejects(retry(failing(5, calls), { delaysMs: [1, 1, 1], retryable: (error) => !String(error).includes('failure 2') }), /failure 2/);
  assert.deepEqual(calls, [1, 2]);
});

test('an abort ends the wait at once with its reason, and no attempt follows', async () => {
  const calls: number[] = [];
  const controller = new AbortController();
  const running = retry(failing(5, calls), {
    delaysMs: [60_000],
    signal: controller.signal,
    onRetry: () => queueMicrotask(() => controller.abort(new Error('stopping'))),
  });
  await assert.rejects(running, /stopping/);
  assert.deepEqual(calls, [1]);
});
