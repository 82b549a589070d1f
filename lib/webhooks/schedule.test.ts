import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseDurations } from '../config/durations';
import { cloudSchedule, GATEWAY_SCHEDULE, maxAttempts, nextStep, TEST_SCHEDULE, type RetrySchedule } from './schedule';

const fail = { ok: false } as const;
const ok = { ok: true } as const;

/** The delays a delivery that always fails waits between attempts, until it is given up. */
function failingRun(schedule: RetrySchedule): { delays: number[]; attempts: number } {
  const delays: number[] = [];
  for (let attempt = 1; ; attempt++) {
    const step = nextStep(schedule, attempt, fail);
    if (step.status === 'failed') return { delays, attempts: attempt };
    assert.equal(step.status, 'pending');
    delays.push(step.retryInMs);
  }
}

// The hosted schedule of an install that sets none of the settings.
const CLOUD = cloudSchedule(parseDurations({}));

test('hosted (docs/api.md): a failing delivery is retried 3 times after 0.5, 2 and 8 s, 5 s per attempt, then given up', () => {
  assert.deepEqual(failingRun(CLOUD), { delays: [500, 2_000, 8_000], attempts: 4 });
  assert.equal(CLOUD.attemptTimeoutMs, 5_000);
  assert.equal(maxAttempts(CLOUD), 4);
});

test('hosted: the schedule follows its settings (the tests run it short)', () => {
  const short = cloudSchedule(parseDurations({ WEBHOOK_RETRY_DELAYS_MS: '100,400', WEBHOOK_ATTEMPT_TIMEOUT_MS: '1000' }));
  assert.deepEqual(failingRun(short), { delays: [100, 400], attempts: 3 });
  assert.equal(short.attemptTimeoutMs, 1_000);
});

test('gateway (docs/gateway.md): retries after 1, 5 and 15 s, 5 s per attempt', () => {
  assert.deepEqual(failingRun(GATEWAY_SCHEDULE), { delays: [1_000, 5_000, 15_000], attempts: 4 });
  assert.equal(GATEWAY_SCHEDULE.attemptTimeoutMs, 5_000);
});

test('the test event has no retries', () => {
  assert.deepEqual(failingRun(TEST_SCHEDULE), { delays: [], attempts: 1 });
  assert.deepEqual(nextStep(TEST_SCHEDULE, 1, ok), { status: 'delivered' });
});

test('a success at any attempt delivers; the schedule is whatever the caller passes', () => {
  for (let attempt = 1; attempt <= 4; attempt++) assert.deepEqual(nextStep(CLOUD, attempt, ok), { status: 'delivered' });
  const custom: RetrySchedule = { attemptTimeoutMs: 100, retryDelaysMs: [10, 20] };
  assert.deepEqual(failingRun(custom), { delays: [10, 20], attempts: 3 });
  assert.deepEqual(nextStep(custom, 2, fail), { status: 'pending', retryInMs: 20 });
  // An attempt past the schedule (a lease expired mid-attempt, a schedule shortened) gives up.
  assert.deepEqual(nextStep(custom, 7, fail), { status: 'failed' });
});
