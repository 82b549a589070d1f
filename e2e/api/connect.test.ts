// The connect endpoint against real Chromium upstreams: Playwright through the proxy, session
// rows, refusals before the upgrade, status.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { call, expectOk, newUser } from '../support/api';
import { launchChromium, type Chromium } from '../support/chromium';
import { cdp, connectUrl, eventually, expectOpened, expectRefused, fetchFromOwnAddress, PROXY, refusedYet, routerKey } from '../support/connect';
import { addProvider, updateRouterRow } from '../support/providers';
import { startRecordingUpstream } from '../support/upstreams';

let browserA: Chromium;
let browserB: Chromium;
before(async () => {
  [browserA, browserB] = await Promise.all([launchChromium(), launchChromium()]);
});
after(async () => {
  await Promise.all([browserA?.stop(), browserB?.stop()]);
});

test('Playwright connectOverCDP through the proxy; the session is recorded', async () => {
  const user = await newUser('pw');
  await addProvider(user.workspaceId, user.routerId, { slug: 'local-a', url: browserA.wsUrl });
  const key = await routerKey(user.workspaceId, user.routerId);
  const browser = await chromium.connectOverCDP(connectUrl(key));
  const context = browser.contexts()[0] ?? (await browser.newContext());
  const page = await context.newPage();
  await page.setContent('<h1 id="t">through the proxy</h1>');
  assert.equal(await page.textContent('#t'), 'through the proxy');
  assert.equal(await page.evaluate(() => 6 * 7), 42);
  await browser.close();

  const { db } = await import('../../lib/db');
  const row = await eventually(
    async () => {
      const s = await db.sessionLog.findFirst({ where: { workspaceId: user.workspaceId } });
      return s && s.state !== 'active' ? s : null;
    },
    5_000,
    'session end',
  );
  assert.equal(row.state, 'closed');
  assert.equal(row.providerSlug, 'local-a');
  assert.ok(Number(row.bytesIn) > 100 && Number(row.bytesOut) > 100);
  assert.ok(row.messageCount > 4);
  assert.ok(row.endedAt && row.durationMs >= 0);
  const listed = expectOk(await call('GET', '/v1/sessions', { auth: { token: user.token } }));
  assert.equal(listed.total, 1);
  assert.equal(listed.items[0].id, row.id);
  assert.equal(listed.items[0].provider.slug, 'local-a');
  assert.equal(listed.items[0].totalBytes, Number(row.bytesIn) + Number(row.bytesOut));
});

test('puppeteer-core connects through the proxy', async () => {
  const user = await newUser('pptr');
  await addProvider(user.workspaceId, user.routerId, { slug: 'local-b', url: browserB.wsUrl });
  const browser = await puppeteer.connect({ browserWSEndpoint: connectUrl(await routerKey(user.workspaceId, user.routerId)) });
  const page = await browser.newPage();
  await page.setContent('<p id="x">puppeteer</p>');
  assert.equal(await page.$eval('#x', (el) => el.textContent), 'puppeteer');
  assert.match(await browser.version(), /Chrome/);
  await page.close();
  await browser.disconnect();
  const { db } = await import('../../lib/db');
  const row = await eventually(
    async () => {
      const s = await db.sessionLog.findFirst({ where: { workspaceId: user.workspaceId } });
      return s && s.state !== 'active' ? s : null;
    },
    5_000,
    'session end',
  );
  assert.equal(row.state, 'closed');
  assert.equal(row.providerSlug, 'local-b');
});

test('the 101 names the session and the provider; raw CDP round trips', async () => {
  const user = await newUser('raw');
  await addProvider(user.workspaceId, user.routerId, { slug: 'local-b', url: browserB.wsUrl });
  const key = await routerKey(user.workspaceId, user.routerId);
  const opened = await expectOpened(connectUrl(key));
  assert.match(opened.sessionId, /^ses_[0-9a-f]{32}$/);
  assert.equal(opened.provider, 'local-b');
  const version = await cdp(opened.ws, 'Browser.getVersion');
  assert.match(version.product, /Chrome/);
  const { db } = await import('../../lib/db');
  const active = await eventually(() => db.sessionLog.findUnique({ where: { id: opened.sessionId } }), 5_000, 'session row');
  assert.equal(active.state, 'active');
  opened.ws.close();
  await opened.closed;
  // A bearer header works as well as ?token=.
  const { open, isOpened } = await import('../support/connect');
  const viaHeader = await open(`${PROXY}/v1/connect`, { authorization: `Bearer ${key}` });
  assert.ok(isOpened(viaHeader));
  viaHeader.ws.close();
});

test('missing, wrong and revoked keys are 401 in plain text; the key is never forwarded', async () => {
  const user = await newUser('key401');
  // The provider is a recording pass-through to browser A: it keeps every request it received.
  const recorder = await startRecordingUpstream(browserA.port);
  after(() => recorder.stop());
  await addProvider(user.workspaceId, user.routerId, { slug: 'a', url: `${recorder.url}${new URL(browserA.wsUrl).pathname}` });
  const missing = await expectRefused(`${PROXY}/v1/connect`, 401);
  assert.match(String(missing.headers['content-type']), /text\/plain/);
  assert.match(missing.body, /router key/);
  await expectRefused(connectUrl('rkey_wrong'), 401);
  await expectRefused(connectUrl(user.token), 401); // an account token is not a router key
  const key = await routerKey(user.workspaceId, user.routerId);
  const live = await expectOpened(connectUrl(key));
  await cdp(live.ws, 'Browser.getVersion');
  const viaHeader = await expectOpened(`${PROXY}/v1/connect`, { authorization: `Bearer ${key}` });
  viaHeader.ws.close();
  // What the provider received: two upgrades, neither carrying the key in its path or any header.
  const upgrades = recorder.seen.filter((r) => r.upgrade);
  assert.equal(upgrades.length, 2, 'both sessions went through the recorder');
  for (const request of upgrades) {
    assert.ok(!request.path.includes(key) && !request.path.includes('token='), `path ${request.path}`);
    assert.equal(request.headers.authorization, undefined, 'no Authorization header reaches the provider');
    for (const [name, value] of Object.entries(request.headers)) assert.ok(!String(value).includes(key), `header ${name} carries the key`);
  }
  const keys = expectOk(await call('GET', '/v1/api-keys', { auth: { token: user.token } }));
  expectOk(await call('DELETE', `/v1/api-keys/${keys.items[0].id}`, { auth: { token: user.token } }));
  await expectRefused(connectUrl(key), 401);
  // Revoking a key also ends its running sessions (e2e/api/revocation.test.ts has the details).
  assert.deepEqual(await live.closed, {
    code: 4001,
    reason: "router key revoked: this key was revoked (the router's Keys page); connect with one of its current keys",
  });
});

test('too many failed attempts from one IP → 429 with Retry-After', async () => {
  const statuses: number[] = [];
  let retryAfter: string | undefined;
  for (let i = 0; i < 12; i++) {
    const { open } = await import('../support/connect');
    const r = await open(connectUrl(`rkey_bad${i}`), {}, '127.9.9.9');
    if ('status' in r) {
      statuses.push(r.status);
      if (r.status === 429) retryAfter = String(r.headers['retry-after']);
    }
  }
  assert.ok(statuses.includes(429), `got ${statuses.join(',')}`);
  assert.ok(Number(retryAfter) >= 1);
  assert.deepEqual(statuses.slice(0, 10), Array(10).fill(401), 'ten failures are allowed per minute');
});

test('refusals before the upgrade: no providers 400, unknown pin 400, switches 409, wallet 402, no provider to save a profile 400', async () => {
  const user = await newUser('refuse');
  const key = await routerKey(user.workspaceId, user.routerId);
  assert.match((await expectRefused(connectUrl(key), 400)).body, /no enabled providers/);
  await addProvider(user.workspaceId, user.routerId, { slug: 'a', url: browserA.wsUrl });
  // The proxy cached the empty router on the first connect; the change arrives through NOTIFY.
  await eventually(async () => /not on this router/.test((await refusedYet(connectUrl(key, { provider: 'nope' }), 400))?.body ?? ''), 15_000, 'router refresh');
  await updateRouterRow(user.routerId, { profilesEnabled: false, replayEnabled: false, observabilityEnabled: false });
  await eventually(
    async () => (await import('../support/connect')).open(connectUrl(key, { profile: 'p' })).then((r) => 'status' in r && r.status === 409),
    15_000,
    'router refresh',
  );
  assert.match((await expectRefused(connectUrl(key, { session_record: 'true' }), 409)).body, /Recording switch/);
  assert.match((await expectRefused(connectUrl(key, { observability: 'true' }), 409)).body, /Traces switch/);
  await updateRouterRow(user.routerId, { profilesEnabled: true, replayEnabled: true, observabilityEnabled: true });
  await eventually(
    async () => (await import('../support/connect')).open(connectUrl(key, { session_record: 'true' })).then((r) => 'status' in r && r.status === 402),
    15_000,
    'router refresh',
  );
  const { db } = await import('../../lib/db');
  await db.wallet.update({ where: { workspaceId: user.workspaceId }, data: { balanceMillicents: 100_000n } });
  // A generic provider cannot save a profile it is not pinned to (docs/profiles.md, Routing).
  assert.match((await expectRefused(connectUrl(key, { profile: 'shop' }), 400)).body, /no provider on this router can save to profile "shop"/);
  await expectRefused(connectUrl(key, { readOnly: '1' }), 400);
  await db.workspace.update({ where: { id: user.workspaceId }, data: { suspended: true } });
  await expectRefused(connectUrl(key), 402);
});

test('GET /v1/status lists the providers with their live state', async () => {
  const user = await newUser('status');
  await addProvider(user.workspaceId, user.routerId, { slug: 'a', url: browserA.wsUrl, priority: 5, maxConcurrent: 2 });
  const key = await routerKey(user.workspaceId, user.routerId);
  const held = await expectOpened(connectUrl(key));
  const res = await fetch(`${PROXY.replace(/^ws/, 'http')}/v1/status`, { headers: { authorization: `Bearer ${key}` } });
  const body = (await res.json()) as { ok: boolean; providers: any[] };
  assert.equal(body.ok, true);
  assert.equal(body.providers.length, 1);
  const [p] = body.providers;
  assert.deepEqual(Object.keys(p).sort(), ['active', 'cooldownUntil', 'healthy', 'id', 'maxConcurrent', 'priority', 'slug']);
  assert.deepEqual(
    { slug: p.slug, healthy: p.healthy, priority: p.priority, active: p.active, maxConcurrent: p.maxConcurrent, cooldownUntil: p.cooldownUntil },
    { slug: 'a', healthy: true, priority: 5, active: 1, maxConcurrent: 2, cooldownUntil: null },
  );
  held.ws.close();
  assert.equal((await fetchFromOwnAddress(`${PROXY.replace(/^ws/, 'http')}/v1/status?token=rkey_nope`)).status, 401);
});

test('the dashboard reads live state over the internal endpoint: no router key needed, none marked used', async () => {
  const user = await newUser('internal-status');
  await addProvider(user.workspaceId, user.routerId, { slug: 'a', url: browserA.wsUrl, maxConcurrent: 3 });
  const auth = { token: user.token };
  // Revoke every key of the router: live state must still show.
  for (const key of expectOk(await call('GET', '/v1/api-keys', { auth })).items as { id: string }[])
    expectOk(await call('DELETE', `/v1/api-keys/${key.id}`, { auth }));
  const status = expectOk(await call('GET', `/api/routers/${user.routerId}/status`, { auth }));
  assert.equal(status.available, true, status.reason);
  assert.deepEqual(
    status.providers.map((p: { slug: string; maxConcurrent: number }) => [p.slug, p.maxConcurrent]),
    [['a', 3]],
  );
  const { db } = await import('../../lib/db');
  assert.equal(await db.routerKey.count({ where: { routerId: user.routerId, lastUsedAt: { not: null } } }), 0);

  const internal = `${PROXY.replace(/^ws/, 'http')}/internal/routers/${user.routerId}/status`;
  // Refusals from an address of their own, so they do not count toward other tests' throttle.
  const refused = (authorization?: string) =>
    new Promise<number>((resolve, reject) =>
      http
        .get(internal, { localAddress: '127.9.9.8', headers: authorization ? { authorization } : {} }, (res) => (res.resume(), resolve(res.statusCode!)))
        .on('error', reject),
    );
  assert.equal(await refused(), 401);
  assert.equal(await refused('Bearer int_wrong'), 401);
  const { internalServiceToken } = await import('../../lib/crypto/internal-token');
  const direct = await fetch(internal, { headers: { authorization: `Bearer ${internalServiceToken()}` } });
  assert.equal(direct.status, 200);
  assert.equal(((await direct.json()) as { providers: unknown[] }).providers.length, 1);
});
