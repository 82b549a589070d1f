// The durations the test stack runs short (lib/config/durations.ts), handed to every process it
// starts and to the test processes, so no test waits out a production value. The tests that prove
// the production values read the defaults from lib/config/durations.ts; the tests that depend on
// these read them back from their own environment and assert relative to them.
export const TEST_SETTINGS: Record<string, string> = {
  // The budget test would wait out timeout + 20 s. The slack also covers a call's set-up (a context
  // on the provider's browser) before its navigation starts: with 2 s a loaded machine's set-up
  // ran out the budget before a 1 s navigation timeout could answer. 5 s leaves it room.
  DATA_API_BUDGET_SLACK_MS: '5000',
  // The cap test would wait 10 s; 2 s is still far more than a late element takes to appear.
  DATA_API_WAIT_FOR_SELECTOR_CAP_MS: '2000',
  // The retry test would wait 0.5 + 2 + 8 s; these keep the three gaps apart.
  WEBHOOK_RETRY_DELAYS_MS: '200,600,1800',
  // The hanging-receiver test would wait 5 s; loopback receivers answer far sooner than 2 s.
  WEBHOOK_ATTEMPT_TIMEOUT_MS: '2000',
  // The killed-worker test waits for a maintenance run and then the retry delay.
  JOBS_MAINTENANCE_INTERVAL_S: '1',
  ENCODE_RETRY_DELAY_S: '1',
  // A video exported through the web process is picked up by the proxy's worker at its next poll.
  JOBS_POLL_MS: '500',
  // The running-trace test waits for the row's figures so far.
  TRACE_PROGRESS_MS: '500',
  // The session list tests wait for a running session's traffic on its row.
  SESSION_STATS_FLUSH_MS: '500',
};
