import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { SettingsError } from './define';
import { checkSettings, readSettings, SETTINGS } from './settings';

const ROOT = path.resolve(import.meta.dirname, '../..');

test('unset, the settings are the documented defaults', () => {
  const s = readSettings({});
  assert.deepEqual(
    {
      port: s.port,
      webPort: s.webPort,
      host: s.host,
      proxyLane: s.proxyLane,
      trustProxy: s.trustProxy,
      encodeConcurrency: s.encodeConcurrency,
      webhookDelivery: s.webhookDelivery,
    },
    { port: 9_500, webPort: 3_000, host: '127.0.0.1', proxyLane: 'fast', trustProxy: false, encodeConcurrency: 1, webhookDelivery: true },
  );
  assert.deepEqual([s.signUpsPerHourPerIp, s.signInFailuresPerIp, s.passwordResetsPerHourPerIp, s.databasePoolSize], [20, 50, 20, 10]);
  assert.deepEqual([s.publicWebUrl, s.publicProxyUrl, s.smtpUrl, s.encryptionKey, s.stripeSecretKey], [null, null, null, null, null]);
  assert.deepEqual([s.adminEmails, s.internalPorts, s.jobsSchema, s.privateNetwork, s.logLevel], [[], [], 'jobs', 'deny', 'info']);
  assert.deepEqual([s.cardFeePercent, s.cardFeeFixedCents, s.cryptoFeePercent], [2.9, 30, 1.5]);
});

test('set values are read in their forms: words in any case, flags, lists, URLs, a key', () => {
  const key = Buffer.alloc(32, 7).toString('base64');
  const s = readSettings({
    PROXY_LANE: ' Pipeline ',
    TRUST_PROXY: ' 1 ',
    WEBHOOK_DELIVERY: '0',
    ENCODE_CONCURRENCY: '0',
    ADMIN_EMAILS: ' A@Example.com, ,b@example.com',
    INTERNAL_PORTS: '7000,7001',
    PUBLIC_PROXY_URL: 'wss://proxy.example.com',
    ENCRYPTION_KEY: key,
    BILLING_CARD_FEE_PERCENT: '3.25',
    JOBS_SCHEMA: 'jobs_test_1',
  });
  assert.deepEqual(
    [
      s.proxyLane,
      s.trustProxy,
      s.webhookDelivery,
      s.encodeConcurrency,
      s.adminEmails,
      s.internalPorts,
      s.publicProxyUrl,
      s.encryptionKey,
      s.cardFeePercent,
      s.jobsSchema,
    ],
    ['pipeline', true, false, 0, ['a@example.com', 'b@example.com'], [7000, 7001], 'wss://proxy.example.com', key, 3.25, 'jobs_test_1'],
  );
});

test('every bad value at once, each named with its rule and the value it had', () => {
  const env = {
    PORT: '95OO',
    TRUST_PROXY: 'yes',
    PROXY_LANE: 'slow',
    PUBLIC_WEB_URL: 'dash.example.com',
    ENCRYPTION_KEY: 'c2hvcnQ=',
    JOBS_SCHEMA: 'jobs; drop table',
    BILLING_CARD_FEE_PERCENT: '60',
    LEASE_TTL_MS: '999',
    SMTP_URL: 'http://mail',
  };
  const problems = checkSettings(env);
  assert.deepEqual(problems, [
    'PORT must be a whole number from 0 to 65535, got "95OO"',
    'PUBLIC_WEB_URL must be an absolute http:// or https:// URL, got "dash.example.com"',
    'PROXY_LANE must be one of "fast", "pipeline", got "slow"',
    'TRUST_PROXY must be 1 (on) or 0 (off), got "yes"',
    'JOBS_SCHEMA must be a PostgreSQL name: up to 63 lower-case letters, digits and _, not starting with a digit, got "jobs; drop table"',
    'SMTP_URL must be an absolute smtp:// or smtps:// URL, got a value of 11 characters (not shown)',
    'ENCRYPTION_KEY must be 32 bytes, base64-encoded, got a value of 8 characters (not shown)',
    'BILLING_CARD_FEE_PERCENT must be a number from 0 to 50, got "60"',
    'LEASE_TTL_MS must be a whole number of milliseconds from 1000 to 3600000, got "999"',
  ]);
  assert.throws(
    () => readSettings(env),
    (error) => error instanceof SettingsError && error.problems.length === problems.length,
  );
});

test('a refusal never shows a credential or an address that may carry one', () => {
  const problems = checkSettings({ DATABASE_URL: 'postgres//admin:hunter2@db', SMTP_URL: 'http://mailer:hunter2@mail', ENCRYPTION_KEY: 'hunter2' });
  assert.equal(problems.length, 3);
  for (const problem of problems) assert.doesNotMatch(problem, /hunter2/);
  assert.equal(problems[0], 'DATABASE_URL must be an absolute postgres:// or postgresql:// URL, got a value of 26 characters (not shown)');
  const secrets = Object.values(SETTINGS)
    .filter((setting) => setting.secret)
    .map((setting) => setting.env);
  assert.deepEqual(secrets.sort(), [
    'AUTH_SECRET',
    'DATABASE_URL',
    'ENCRYPTION_KEY',
    'NEXTAUTH_SECRET',
    'POOL_TOKEN',
    'PROXY_INTERNAL_TOKEN',
    'SMTP_URL',
    'STRIPE_SECRET_KEY',
    'STRIPE_WEBHOOK_SECRET',
  ]);
});

test('each variable is declared once', () => {
  const names = Object.values(SETTINGS).map((setting) => setting.env);
  assert.deepEqual(
    names.filter((name, i) => names.indexOf(name) !== i),
    [],
  );
});

test('a proxy with bad settings does not start, and says which, every one', { timeout: 60_000 }, async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'proxy/index.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: 'ninety', TRUST_PROXY: 'true', LOG_LEVEL: 'warn', LOG_DESTINATION: 'stdout' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  assert.equal(code, 1, output);
  assert.match(output, /proxy could not start/);
  assert.match(output, /PORT must be a whole number from 0 to 65535, got \\"ninety\\"; TRUST_PROXY must be 1 \(on\) or 0 \(off\), got \\"true\\"/);
});

test('npm start with bad settings starts nothing, and lists every bad one', { timeout: 60_000 }, async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: 'abc', TRUST_PROXY: 'yes' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  assert.equal(code, 1, output);
  assert.equal(
    output,
    'could not start, the settings are wrong:\n  PORT must be a whole number from 0 to 65535, got "abc"\n  TRUST_PROXY must be 1 (on) or 0 (off), got "yes"\n',
  );
});
