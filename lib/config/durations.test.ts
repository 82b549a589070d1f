import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { DURATION_SETTINGS, parseDurations } from './durations';

test('the defaults are the production values, the contract where the spec sets one', () => {
  const d = parseDurations({});
  assert.equal(d.dataApiBudgetSlackMs, 20_000, 'docs/connect.md, Data API: the whole call may take timeout + 20 s');
  assert.equal(d.dataApiWaitForSelectorCapMs, 10_000, 'docs/connect.md, Data API: waitForSelector has a 10 s cap');
  assert.deepEqual(d.webhookRetryDelaysMs, [500, 2_000, 8_000], 'docs/api.md, Webhooks: retried after 0.5, 2 and 8 s');
  assert.equal(d.webhookAttemptTimeoutMs, 5_000, 'docs/api.md, Webhooks: 5 s per attempt');
  assert.equal(d.encodeRetryDelayS, 5, 'docs/recordings.md, Jobs: retried 5 s after a failure');
  assert.equal(d.encodeExpiryMinS, 120);
  assert.equal(d.jobsMaintenanceIntervalS, 60);
  assert.equal(d.jobsPollMs, 2_000);
  assert.equal(d.traceProgressMs, 5_000);
  assert.equal(d.sessionStatsFlushMs, 5_000);
  assert.equal(d.shutdownDrainMs, 30_000);
  assert.equal(d.leaseTtlMs, 20_000);
  assert.equal(d.dataApiIdleConnectionMs, 30_000);
});

test('set values are read; an empty one is unset; lists are comma-separated', () => {
  const d = parseDurations({ DATA_API_BUDGET_SLACK_MS: '2000', LEASE_TTL_MS: ' 4000 ', TRACE_PROGRESS_MS: '', WEBHOOK_RETRY_DELAYS_MS: '100, 400,1600' });
  assert.equal(d.dataApiBudgetSlackMs, 2_000);
  assert.equal(d.leaseTtlMs, 4_000);
  assert.equal(d.traceProgressMs, 5_000);
  assert.deepEqual(d.webhookRetryDelaysMs, [100, 400, 1_600]);
});

test('a bad value is refused with a message naming the variable, its unit, range and value', () => {
  const refused = (env: Record<string, string>) => {
    try {
      parseDurations(env);
    } catch (error) {
      return (error as Error).message;
    }
    assert.fail(`accepted ${JSON.stringify(env)}`);
  };
  assert.equal(refused({ LEASE_TTL_MS: '999' }), 'LEASE_TTL_MS must be a whole number of milliseconds from 1000 to 3600000, got "999"');
  assert.equal(refused({ DATA_API_BUDGET_SLACK_MS: '20s' }), 'DATA_API_BUDGET_SLACK_MS must be a whole number of milliseconds from 0 to 600000, got "20s"');
  assert.equal(refused({ ENCODE_RETRY_DELAY_S: '1.5' }), 'ENCODE_RETRY_DELAY_S must be a whole number of seconds from 0 to 3600, got "1.5"');
  assert.equal(refused({ SHUTDOWN_DRAIN_MS: '-1' }), 'SHUTDOWN_DRAIN_MS must be a whole number of milliseconds from 0 to 3600000, got "-1"');
  assert.equal(
    refused({ WEBHOOK_RETRY_DELAYS_MS: '500,x,y' }),
    'WEBHOOK_RETRY_DELAYS_MS must be a comma-separated list of up to 10 whole numbers of milliseconds from 0 to 3600000, got "500,x,y"',
  );
  // Every bad variable at once, so one restart fixes them all.
  assert.equal(refused({ JOBS_POLL_MS: '0', TRACE_PROGRESS_MS: 'soon' }).split('; ').length, 2);
});

test('every setting is in the README configuration table', () => {
  const readme = readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');
  const table = readme.split(/^## /m).find((part) => part.startsWith('Configuration')) ?? '';
  const rows = table
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((row) => row.split('|')[1] ?? '');
  const missing = Object.values(DURATION_SETTINGS).filter((setting) => !rows.some((first) => first.includes(`\`${setting.env}\``)));
  assert.deepEqual(
    missing.map((setting) => setting.env),
    [],
    'add these to the README configuration table',
  );
});
