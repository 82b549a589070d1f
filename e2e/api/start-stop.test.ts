// `npm start` as a user runs it, stopped the way a terminal's Ctrl-C stops it: SIGINT to the whole
// foreground process group at once. The proxy must still be able to drain (a session that ends
// during the drain is written as `closed`), the pool must outlive the proxy's sessions, and the
// database must stop last and cleanly. On this fresh install nobody is the operator, not even the
// first account: the start prints a one-time claim link, which makes the signed-in account that
// opens it the operator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { startEmbeddedPostgres } from '../../lib/db/embedded';
import { loadInstanceSecrets } from '../../lib/runtime/secrets';
import { freePort } from '../../scripts/lib/ports';
import { programRunner, tsxBin } from '../../scripts/lib/processes';
import { call, expectOk, signIn } from '../support/api';
import { eventually } from '../support/connect';

test('Ctrl-C on npm start: the proxy drains and writes its sessions, the pool and PostgreSQL stop after it', { timeout: 240_000 }, async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'br-start-'));
  const [webPort, proxyPort, poolPort, pgPort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  // A user's shell: none of the test stack's settings.
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LANG: process.env.LANG,
    DATA_DIR: dataDir,
    WEB_PORT: String(webPort),
    PORT: String(proxyPort),
    POOL_PORT: String(poolPort),
    EMBEDDED_PG_PORT: String(pgPort),
    LOG_LEVEL: 'info',
  };
  // Its own process group, as the terminal's foreground job.
  const start = spawn(process.execPath, [tsxBin, 'scripts/start.ts'], { env: env as NodeJS.ProcessEnv, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  start.stdout.on('data', (c: Buffer) => (output += c.toString()));
  start.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const printed = (pattern: RegExp, timeoutMs: number) =>
    eventually(() => pattern.test(output), timeoutMs, `${pattern} in the output`).catch((error: Error) => {
      throw new Error(`${error.message}:\n${output.slice(-3000)}`);
    });
  const exited = new Promise<number | null>((resolve) => start.on('exit', (code) => resolve(code)));
  let browser: Awaited<ReturnType<typeof chromium.connectOverCDP>> | undefined;
  try {
    await printed(/press Ctrl-C to stop/, 150_000);
    const seeded = JSON.parse(
      (
        await promisify(execFile)(
          process.execPath,
          [programRunner, 'scripts/seed.ts', '--email', 'ctrl-c@example.test', '--password', 'a seeded password', '--json'],
          { env: env as NodeJS.ProcessEnv },
        )
      ).stdout.trim(),
    );
    const key = await (
      await fetch(`http://localhost:${webPort}/v1/api-keys/current/plaintext`, { headers: { authorization: `Bearer ${seeded.accessToken}` } })
    ).json();
    await claimOperator(output, `http://localhost:${webPort}`, seeded.accessToken);
    await signUpGetsProbedPool(`http://localhost:${webPort}`);
    browser = await chromium.connectOverCDP(`ws://localhost:${proxyPort}/v1/connect?token=${key.data.plaintextKey}`, { timeout: 90_000 });
    const page = await (browser.contexts()[0] ?? (await browser.newContext())).newPage();
    await page.setContent('<title>before</title>');

    process.kill(-start.pid!, 'SIGINT');
    await printed(/draining sessions before exit/, 30_000);
    // The session still works while the proxy drains: the pool and the database are up.
    await page.setContent('<title>during the drain</title>');
    assert.equal(await page.title(), 'during the drain');
    await browser.close();
    browser = undefined;
    assert.equal(await exited, 0, output.slice(-3000));
    assert.match(output, /\[start\] stopped/);
    assert.doesNotMatch(output, /LISTEN connection lost|could not record session|terminating connection/i);
  } finally {
    await browser?.close().catch(() => {});
    if (start.exitCode === null) process.kill(-start.pid!, 'SIGKILL');
  }

  // The database stopped cleanly and holds the session as the proxy wrote it during the drain.
  const secrets = loadInstanceSecrets(dataDir);
  const server = await startEmbeddedPostgres({ dataDir, port: await freePort(), password: secrets.postgresPassword });
  const client = new pg.Client({ connectionString: server.url });
  try {
    await client.connect();
    const { rows } = await client.query(`SELECT state, "errorReason" FROM "SessionLog"`);
    assert.deepEqual(rows, [{ state: 'closed', errorReason: null }]);
  } finally {
    await client.end();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/** The claim link in the start's output, opened by the seeded (first) account, which was no operator before. */
async function claimOperator(output: string, web: string, token: string) {
  const link = /^\[start\] +(http:\/\/localhost:\d+\/claim-operator\?token=opc_\S+)$/m.exec(output)?.[1];
  assert.ok(link, `a claim link in the output:\n${output.slice(-3000)}`);
  assert.equal(expectOk(await call('GET', '/v1/me', { auth: { token }, base: web })).isAdmin, false, 'the first account is no operator');
  const page = await fetch(link, { redirect: 'manual' });
  assert.equal(page.status, 307, 'signed out, the link asks to sign in first');
  assert.equal(new URL(page.headers.get('location')!, web).searchParams.get('callbackUrl'), link.slice(web.length));
  const session = await signIn('ctrl-c@example.test', 'a seeded password', web);
  const claimed = await call('POST', '/api/operator/claim', {
    auth: { ...session, origin: web },
    body: { token: new URL(link).searchParams.get('token') },
    base: web,
  });
  assert.deepEqual(expectOk(claimed), { operator: true, email: 'ctrl-c@example.test' });
  assert.equal(expectOk(await call('GET', '/v1/me', { auth: { token }, base: web })).isAdmin, true);
}

/** A sign-up on the web gets the local pool as its router's first provider, with the capabilities a probe records. */
async function signUpGetsProbedPool(web: string) {
  const email = 'second@example.test';
  const signedUp = await call('POST', '/api/sign-up', {
    base: web,
    headers: { origin: web },
    body: { name: 'Second User', email, password: 'a second password' },
  });
  assert.equal(signedUp.status, 201, JSON.stringify(signedUp.body));
  const session = await signIn(email, 'a second password', web);
  // Written with the web's latest probe of the pool, or filled in by the probe started then.
  const capabilities = await eventually(
    async () => {
      const { items } = expectOk(await call('GET', '/v1/providers', { auth: session, base: web }));
      const pool = items.find((p: { slug: string }) => p.slug === 'local-pool');
      return pool?.capabilities.probedAt ? pool.capabilities : null;
    },
    30_000,
    'the local-pool provider probed',
  );
  assert.equal(capabilities.providerKind, 'managed');
  assert.ok(capabilities.probeDurationMs > 0 && capabilities.targetCreateLatencyMs >= 0, JSON.stringify(capabilities));
}
