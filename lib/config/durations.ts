// Every duration the product waits out that may differ between installs and test runs: one row
// each (its environment variable, default, allowed range, and why it is a setting), read with the
// rest of the settings (lib/config/settings.ts). The defaults are the production values, some of
// them the spec's contract (noted on their rows): the test stack sets short values instead of
// waiting out these (scripts/lib/test-settings.ts), and the tests that prove the contract read the
// defaults from here.
import { parseSettings, whole, wholes, type Values } from './define';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

export const DURATION_SETTINGS = {
  // The contract (docs/connect.md, Data API): the whole call may take `timeout` plus 20 seconds.
  dataApiBudgetSlackMs: whole(
    'DATA_API_BUDGET_SLACK_MS',
    'ms',
    20_000,
    [0, 10 * MINUTE_MS],
    'how much longer than its `timeout` a data-API call may take in all',
  ),
  // The contract (docs/connect.md, Data API): waitForSelector waits at most 10 s.
  dataApiWaitForSelectorCapMs: whole(
    'DATA_API_WAIT_FOR_SELECTOR_CAP_MS',
    'ms',
    10_000,
    [100, 2 * MINUTE_MS],
    'the longest a data-API call waits for its `waitForSelector`',
  ),
  dataApiIdleConnectionMs: whole(
    'DATA_API_IDLE_CONNECTION_MS',
    'ms',
    30_000,
    [100, HOUR_MS],
    'how long the data API keeps an unused provider connection for the next call',
  ),
  // docs/api.md, Webhooks: retried 3 times, after 0.5, 2 and 8 s; 5 s per attempt.
  webhookRetryDelaysMs: wholes(
    'WEBHOOK_RETRY_DELAYS_MS',
    'ms',
    [500, 2_000, 8_000],
    [0, HOUR_MS],
    "the hosted webhook retries: the wait before each, from the failed attempt's end",
  ),
  webhookAttemptTimeoutMs: whole('WEBHOOK_ATTEMPT_TIMEOUT_MS', 'ms', 5_000, [100, MINUTE_MS], 'how long a hosted webhook attempt waits for its 2xx'),
  sessionStatsFlushMs: whole('SESSION_STATS_FLUSH_MS', 'ms', 5_000, [100, 10 * MINUTE_MS], "how often a running session's traffic is written to its row"),
  traceProgressMs: whole('TRACE_PROGRESS_MS', 'ms', 5_000, [100, 10 * MINUTE_MS], "how often a running trace's row gets its figures so far"),
  shutdownDrainMs: whole('SHUTDOWN_DRAIN_MS', 'ms', 30_000, [0, HOUR_MS], 'how long a stopping proxy lets sessions and data-API calls finish'),
  leaseTtlMs: whole('LEASE_TTL_MS', 'ms', 20_000, [1_000, HOUR_MS], "how long a proxy's provider slots outlive its last heartbeat"),
  encodeExpiryMinS: whole('ENCODE_EXPIRY_MIN_S', 's', 120, [1, 23 * 3_600], 'the least time an encode attempt holds its job (pg-boss refuses 24 h)'),
  encodeRetryDelayS: whole('ENCODE_RETRY_DELAY_S', 's', 5, [0, 3_600], 'how long a failed encode waits before its retry'),
  jobsMaintenanceIntervalS: whole('JOBS_MAINTENANCE_INTERVAL_S', 's', 60, [1, 3_600], 'how often a job worker returns the jobs of dead workers to the queue'),
  jobsPollMs: whole('JOBS_POLL_MS', 'ms', 2_000, [50, MINUTE_MS], 'how often an idle job worker looks for jobs queued by other processes'),
};

export type Durations = Values<typeof DURATION_SETTINGS>;

/** The settings as `env` gives them; throws one message naming every bad variable. */
export const parseDurations = (env: Record<string, string | undefined>): Durations => parseSettings(DURATION_SETTINGS, env);
