// Every duration the product waits out that may differ between installs and test runs: one row
// each (its environment variable, default, allowed range, and why it is a setting), read from the
// environment once, at first use. A bad value is refused with a message naming its variable; the
// proxy reads them at start, so it refuses to start. The defaults are the production values, some
// of them the spec's contract (noted on their rows): the test stack sets short values instead of
// waiting out these (scripts/lib/test-settings.ts), and the tests that prove the contract read the
// defaults from here. The rest of the configuration is meant to join this folder as more tables.
import { z } from 'zod';

type Unit = 'ms' | 's';

interface Setting<T extends number | readonly number[]> {
  env: string;
  unit: Unit;
  default: T;
  /** The range of the value (of each entry of a list). */
  min: number;
  max: number;
  why: string;
}

const one = (env: string, unit: Unit, value: number, [min, max]: [number, number], why: string): Setting<number> => ({ env, unit, default: value, min, max, why });
const list = (env: string, unit: Unit, value: readonly number[], [min, max]: [number, number], why: string): Setting<readonly number[]> => ({ env, unit, default: value, min, max, why });

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

export const DURATION_SETTINGS = {
  // The contract (docs/connect.md, Data API): the whole call may take `timeout` plus 20 seconds.
  dataApiBudgetSlackMs: one('DATA_API_BUDGET_SLACK_MS', 'ms', 20_000, [0, 10 * MINUTE_MS], 'how much longer than its `timeout` a data-API call may take in all'),
  // The contract (docs/connect.md, Data API): waitForSelector waits at most 10 s.
  dataApiWaitForSelectorCapMs: one('DATA_API_WAIT_FOR_SELECTOR_CAP_MS', 'ms', 10_000, [100, 2 * MINUTE_MS], 'the longest a data-API call waits for its `waitForSelector`'),
  dataApiIdleConnectionMs: one('DATA_API_IDLE_CONNECTION_MS', 'ms', 30_000, [100, HOUR_MS], 'how long the data API keeps an unused provider connection for the next call'),
  // docs/api.md, Webhooks: retried 3 times, after 0.5, 2 and 8 s; 5 s per attempt.
  webhookRetryDelaysMs: list('WEBHOOK_RETRY_DELAYS_MS', 'ms', [500, 2_000, 8_000], [0, HOUR_MS], 'the hosted webhook retries: the wait before each, from the failed attempt\'s end'),
  webhookAttemptTimeoutMs: one('WEBHOOK_ATTEMPT_TIMEOUT_MS', 'ms', 5_000, [100, MINUTE_MS], 'how long a hosted webhook attempt waits for its 2xx'),
  sessionStatsFlushMs: one('SESSION_STATS_FLUSH_MS', 'ms', 5_000, [100, 10 * MINUTE_MS], 'how often a running session\'s traffic is written to its row'),
  traceProgressMs: one('TRACE_PROGRESS_MS', 'ms', 5_000, [100, 10 * MINUTE_MS], 'how often a running trace\'s row gets its figures so far'),
  shutdownDrainMs: one('SHUTDOWN_DRAIN_MS', 'ms', 30_000, [0, HOUR_MS], 'how long a stopping proxy lets sessions and data-API calls finish'),
  leaseTtlMs: one('LEASE_TTL_MS', 'ms', 20_000, [1_000, HOUR_MS], 'how long a proxy\'s provider slots outlive its last heartbeat'),
  encodeExpiryMinS: one('ENCODE_EXPIRY_MIN_S', 's', 120, [1, 23 * 3_600], 'the least time an encode attempt holds its job (pg-boss refuses 24 h)'),
  encodeRetryDelayS: one('ENCODE_RETRY_DELAY_S', 's', 5, [0, 3_600], 'how long a failed encode waits before its retry'),
  jobsMaintenanceIntervalS: one('JOBS_MAINTENANCE_INTERVAL_S', 's', 60, [1, 3_600], 'how often a job worker returns the jobs of dead workers to the queue'),
  jobsPollMs: one('JOBS_POLL_MS', 'ms', 2_000, [50, MINUTE_MS], 'how often an idle job worker looks for jobs queued by other processes'),
} satisfies Record<string, Setting<number | readonly number[]>>;

export type Durations = { readonly [K in keyof typeof DURATION_SETTINGS]: (typeof DURATION_SETTINGS)[K]['default'] };

const UNIT_NAMES: Record<Unit, string> = { ms: 'milliseconds', s: 'seconds' };
const MAX_LIST_ENTRIES = 10;

/** One setting's schema: unset or empty is its default; anything else must be in its range. */
function field(setting: Setting<number | readonly number[]>) {
  const isList = Array.isArray(setting.default);
  const what = isList ? `a comma-separated list of up to ${MAX_LIST_ENTRIES} whole numbers` : 'a whole number';
  const rule = `${setting.env} must be ${what} of ${UNIT_NAMES[setting.unit]} from ${setting.min} to ${setting.max}`;
  const amount = z.string().trim().regex(/^\d+$/, rule).transform(Number).pipe(z.number().min(setting.min, rule).max(setting.max, rule));
  const value = isList ? z.string().transform((text) => text.split(',')).pipe(z.array(amount).max(MAX_LIST_ENTRIES, rule)) : amount;
  return z.preprocess((raw) => (raw === '' ? undefined : raw), value.optional()).transform((parsed) => parsed ?? setting.default);
}

const schema = z.object(Object.fromEntries(Object.entries(DURATION_SETTINGS).map(([key, setting]) => [key, field(setting)])));

/** The settings as `env` gives them; throws one message naming every bad variable. */
export function parseDurations(env: Record<string, string | undefined>): Durations {
  const input: Record<string, string | undefined> = Object.fromEntries(Object.entries(DURATION_SETTINGS).map(([key, setting]) => [key, env[setting.env]]));
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    // A list with several bad entries has one issue per entry, all with the same message.
    const problems = new Set(parsed.error.issues.map((issue) => `${issue.message}, got "${input[String(issue.path[0])]}"`));
    throw new Error([...problems].join('; '));
  }
  return parsed.data as Durations;
}

let current: Durations | undefined;

/** This process's settings, read from its environment at the first call. */
export function durations(): Durations {
  current ??= parseDurations(process.env);
  return current;
}
