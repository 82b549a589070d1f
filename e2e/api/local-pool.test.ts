// The local browser pool as a managed provider: detected by the API's probe, given to new
// routers on a local install, and serving a Playwright session through the proxy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { call, expectOk, newUser } from '../support/api';
import { connectUrl, eventually, POOL_HTTP, routerKey } from '../support/connect';
import { programRunner } from '../../scripts/lib/processes';
import { openAddress } from '../../lib/providers/secrets';
import { launchChromium } from '../support/chromium';
import { startRecordingUpstream } from '../support/upstreams';
import { setEnv } from '../../lib/config/testing';

const POOL_WS = `${POOL_HTTP.replace(/^http/, 'ws')}/`;

async function poolCapacity(): Promise<number> {
  return eventually(
    async () => {
      // The pool answers only with its token, which the stack hands to its processes (and to us).
      const status = (await (await fetch(`${POOL_HTTP}/pool/status`, { headers: { authorization: `Bearer ${process.env.POOL_TOKEN}` } })).json()) as {
        calibrating: boolean;
        capacity: number;
      };
      return status.calibrating ? null : status.capacity;
    },
    30_000,
    'the pool to calibrate',
  );
}

test('POST /v1/providers detects the pool as managed with its capacity', async () => {
  const capacity = await poolCapacity();
  const user = await newUser('managed');
  const created = expectOk(await call('POST', '/v1/providers', { auth: { token: user.token }, body: { slug: 'pool', url: POOL_WS } }), 201);
  assert.equal(created.capabilities.providerKind, 'managed');
  assert.equal(created.capabilities.advertisedMaxConcurrent, capacity);
  const probe = expectOk(await call('POST', '/v1/providers/probe', { auth: { token: user.token }, body: { url: POOL_WS } }));
  assert.deepEqual(probe, { detectedKind: 'managed', advertisedMaxConcurrent: capacity });
});

test('a new router on a local install gets the pool first and serves Playwright through it', async () => {
  await poolCapacity();
  // newUser() runs the sign-up code in this process: give it the local install's settings.
  const restore = setEnv({ LOCAL_POOL_URL: POOL_WS, LOCAL_POOL_AUTO_PROVIDER: '1' });
  const user = await newUser('fresh').finally(restore);
  const providers = expectOk(await call('GET', '/v1/providers', { auth: { token: user.token } }));
  assert.deepEqual(
    providers.items.map((p: { slug: string; capabilities: { providerKind: string } }) => [p.slug, p.capabilities.providerKind]),
    [['local-pool', 'managed']],
  );

  // The pool starts a Chromium for the session: slow on a busy machine.
  const browser = await chromium.connectOverCDP(connectUrl(await routerKey(user.workspaceId, user.routerId)), { timeout: 90_000 });
  const page = await (browser.contexts()[0] ?? (await browser.newContext())).newPage();
  await page.setContent('<title>pooled</title>');
  assert.equal(await page.title(), 'pooled');
  await browser.close();
  const sessions = await eventually(
    async () => {
      const list = expectOk(await call('GET', '/v1/sessions', { auth: { token: user.token } }));
      return list.items.length === 1 && list.items[0].state !== 'active' ? list : null;
    },
    10_000,
    'the session to end',
  );
  assert.equal(sessions.items[0].provider.slug, 'local-pool');
  assert.equal(sessions.items[0].state, 'closed');
});

test('npm run seed prints the user, workspace, router and token, and the router has the local pool', async () => {
  await poolCapacity();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'br-seed-'));
  try {
    // The script as a user runs it, on the test stack's database; only POOL_PORT says where the pool is.
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, POOL_PORT: new URL(POOL_HTTP).port };
    delete env.LOCAL_POOL_URL;
    delete env.LOCAL_POOL_AUTO_PROVIDER;
    const email = `seeded-${Date.now()}@example.test`;
    const run = () =>
      promisify(execFile)(process.execPath, [programRunner, 'scripts/seed.ts', '--email', email, '--password', 'a seeded password', '--json'], { env });
    const first = JSON.parse((await run()).stdout.trim()) as { userId: string; workspaceId: string; routerId: string; accessToken: string };
    assert.match(first.accessToken, /^acct_/);
    const me = expectOk(await call('GET', '/v1/me', { auth: { token: first.accessToken } }));
    assert.equal(me.user.email, email);
    assert.equal(me.user.emailVerified, true);
    assert.equal(me.activeWorkspaceId, first.workspaceId);
    assert.equal(me.activeRouterInstanceId, first.routerId);
    const providers = expectOk(await call('GET', '/v1/providers', { auth: { token: first.accessToken } }));
    assert.deepEqual(
      providers.items.map((p: { slug: string }) => p.slug),
      ['local-pool'],
    );

    // Run again: the same user, workspace and router, a new token; the old one keeps working.
    const second = JSON.parse((await run()).stdout.trim()) as typeof first;
    assert.deepEqual([second.userId, second.workspaceId, second.routerId], [first.userId, first.workspaceId, first.routerId]);
    assert.notEqual(second.accessToken, first.accessToken);
    expectOk(await call('GET', '/v1/me', { auth: { token: first.accessToken } }));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('the pool token is added on the way to the pool only: never stored, never sent to an address the tenant changes it to', async () => {
  await poolCapacity();
  const token = process.env.POOL_TOKEN!;
  assert.ok(token, 'the stack runs the pool with a token');
  const user = await newUser('pool-token');
  const auth = { token: user.token };
  expectOk(await call('POST', '/v1/providers', { auth, body: { slug: 'pool', url: POOL_WS } }), 201);
  const { db } = await import('../../lib/db');
  const row = await db.provider.findFirstOrThrow({ where: { routerId: user.routerId, slug: 'pool' } });
  assert.deepEqual(openAddress(row)?.headers ?? {}, {}, 'no header is stored with the pool provider');

  // The tenant points the provider somewhere else: what arrives there carries no pool token.
  const browser = await launchChromium();
  const recorder = await startRecordingUpstream(Number(new URL(browser.wsUrl).port));
  try {
    const path = new URL(browser.wsUrl).pathname;
    expectOk(await call('PATCH', '/v1/providers/pool', { auth, body: { url: `${recorder.url}${path}` } }));
    assert.ok(recorder.seen.length > 0, 'the new address was tested');
    for (const seen of recorder.seen) assert.ok(!JSON.stringify(seen.headers).includes(token), `no pool token in ${JSON.stringify(seen.headers)}`);
  } finally {
    await recorder.stop();
    await browser.stop();
  }
});
