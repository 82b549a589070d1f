// Retry schedules as data. Both schedules (docs/api.md, docs/gateway.md) have a first attempt at once, a per-attempt timeout and
// retries after fixed delays, then give up; only the numbers differ. The hosted worker reschedules
// each retry in the database (nextStep); the gateway, which has none, retries in memory through
// lib/retry/retry.ts with the same delays.
import type { Durations } from '../config/durations';

export interface RetrySchedule {
  /** A 2xx must arrive within this; otherwise the attempt failed. */
  attemptTimeoutMs: number;
  /** Delay before each retry, measured from the failed attempt's end. Its length is the retry count. */
  retryDelaysMs: readonly number[];
}

/**
 * docs/api.md, Webhooks: retried 3 times after 0.5, 2 and 8 s; 5 s per attempt. Those are the
 * settings' defaults (lib/config/durations.ts): the tests run the schedule short.
 */
export function cloudSchedule(settings: Pick<Durations, 'webhookAttemptTimeoutMs' | 'webhookRetryDelaysMs'>): RetrySchedule {
  return { attemptTimeoutMs: settings.webhookAttemptTimeoutMs, retryDelaysMs: settings.webhookRetryDelaysMs };
}

/** docs/gateway.md, Webhooks: retries after 1, 5 and 15 s; 5 s per attempt. */
export const GATEWAY_SCHEDULE: RetrySchedule = { attemptTimeoutMs: 5_000, retryDelaysMs: [1_000, 5_000, 15_000] };

/** POST /v1/webhooks/:id/test: one attempt, no retries. */
export const TEST_SCHEDULE: RetrySchedule = { attemptTimeoutMs: 5_000, retryDelaysMs: [] };

export type AttemptResult = { ok: true } | { ok: false };

export type NextStep = { status: 'delivered' } | { status: 'pending'; retryInMs: number } | { status: 'failed' };

/** What follows attempt number `attempt` (1-based) with this result. */
export function nextStep(schedule: RetrySchedule, attempt: number, result: AttemptResult): NextStep {
  if (result.ok) return { status: 'delivered' };
  const delay = schedule.retryDelaysMs[attempt - 1];
  return delay === undefined ? { status: 'failed' } : { status: 'pending', retryInMs: delay };
}

export const maxAttempts = (schedule: RetrySchedule) => schedule.retryDelaysMs.length + 1;
