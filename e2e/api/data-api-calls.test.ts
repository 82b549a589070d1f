// The data API's edges: authentication (plain-text 401/429), validation details, request limits,
// the timeouts (navigation 408, whole-request budget 408), the monthly usage counter, and the
// reused provider connection with a fresh context per call.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { newUser, type TestUser } from '../support/api';
import { launchChromium, type Chromium } from '../support/chromium';
import { eventually, routerKey } from '../support/connect';
import { dataApi, expectStatus } from '../support/data-api';
import { addProvider, countingRelay, updateRouterRow } from '../support/providers';
import { startTestSite, type TestSite } from '../support/test-site';
import { freePort } from '../../scripts/lib/ports';
import { settings } from '../../lib/config/settings';
import { startProxy } from '../../proxy/server';

let browser: Chromium;
let site: TestSite;
let user: TestUser;
let key: string;
const uid = () => Math.random().toString(36).slice(2, 10);

before(async () => {
  [browser, site] = await Promise.all([launchChromium(), startTestSite()]);
  user = await newUser('calls');
  await addProvider(user.workspaceId, user.routerId, { slug: 'chromium', url: browser.wsUrl });
  key = await routerKey(user.workspaceId, user.routerId);
});
after(async () => {
  await Promise.all([browser?.stop(), site?.close()]);
});

async function usage(workspaceId: string): Promise<number> {
  const { db } = await import('../../lib/db');
  const rows = await db.usageCounter.findMany({ where: { workspaceId } });
  return rows.reduce((sum, r) => sum + r.sessions, 0);
}

test('the router key works as bearer and as ?token=; missing or wrong keys are 401 in plain text', async () => {
  const body = { url: `${site.url}/basic` };
  expectStatus(await dataApi('content', key, body, { auth: 'bearer' }), 200);
  expectStatus(await dataApi('screenshot', key, body, { auth: 'query' }), 200);
  for (const res of [
    await dataApi('content', key, body, { auth: 'none' }),
    await dataApi('scrape', 'rkey_wrong', body),
    await dataApi('screenshot', user.token, body),
  ]) {
    assert.equal(res.status, 401);
    assert.match(String(res.headers['content-type']), /^text\/plain/);
    assert.match(res.text, /router key missing, wrong or revoked/);
  }
});

test('too many failed keys from one address → 429 in plain text with Retry-After', async () => {
  const statuses: number[] = [];
  let last = null as Awaited<ReturnType<typeof dataApi>> | null;
  for (let i = 0; i < 11; i++) {
    last = await dataApi('content', `rkey_bad${i}`, { url: `${site.url}/basic` }, { localAddress: '127.8.8.8' });
    statuses.push(last.status);
  }
  assert.deepEqual(statuses, [...Array(10).fill(401), 429]);
  assert.match(String(last!.headers['content-type']), /^text\/plain/);
  assert.ok(Number(last!.headers['retry-after']) >= 1);
});

test('validation: 400 with a details entry naming each bad field', async () => {
  const res = expectStatus(
    await dataApi('screenshot', key, {
      url: 'ftp://example.test/file',
      format: 'gif',
      viewport: { width: 0 },
      timeout: 10,
      waitForTimeout: 30_001,
      waitUntil: 'idle',
      clip: { x: -1, y: 0, width: 10, height: 10 },
      headers: { 'Bad Header': 'x' },
      fullpage: true,
    }),
    400,
  );
  assert.equal(res.json.success, false);
  assert.match(res.json.error, /^invalid request: /);
  const fields = res.json.details.map((d: { field: string }) => d.field).sort();
  assert.deepEqual(fields, [
    'clip.x',
    'format',
    'fullpage',
    'headers.Bad Header',
    'timeout',
    'url',
    'viewport.height',
    'viewport.width',
    'waitForTimeout',
    'waitUntil',
  ]);
  for (const d of res.json.details) assert.ok(typeof d.message === 'string' && d.message.length > 0);

  const crossField = expectStatus(
    await dataApi('screenshot', key, { url: `${site.url}/basic`, quality: 50, selector: '#box', clip: { x: 0, y: 0, width: 5, height: 5 } }),
    400,
  );
  assert.deepEqual(crossField.json.details.map((d: { field: string }) => d.field).sort(), ['clip'], 'quality with a PNG is ignored, not refused');
  const content = expectStatus(await dataApi('content', key, { url: `${site.url}/basic`, formats: ['pdf'] }), 400);
  assert.deepEqual(
    content.json.details.map((d: { field: string }) => d.field),
    ['formats.0'],
  );
  const missing = expectStatus(await dataApi('content', key, {}), 400);
  assert.deepEqual(missing.json.details, [{ field: 'url', message: 'required' }]);
  const notJson = expectStatus(await dataApi('content', key, null, { rawBody: '{"url": ' }), 400);
  assert.deepEqual(notJson.json.details, [{ field: 'body', message: 'is not valid JSON' }]);
});

test('a request body over 1 MB is 413; GET is 405', async () => {
  const huge = expectStatus(await dataApi('content', key, { url: `${site.url}/basic`, userAgent: 'x'.repeat(1_100_000) }), 413);
  assert.equal(huge.json.success, false);
  const get = await dataApi('content', key, null, { method: 'GET', rawBody: '' });
  assert.equal(get.status, 405);
  assert.equal(get.headers.allow, 'POST');
  assert.equal(get.json.success, false);
});

test('timeouts: a navigation past `timeout` is 408; the whole call is bounded by timeout + DATA_API_BUDGET_SLACK_MS (20 s in production)', async () => {
  const started = Date.now();
  const nav = expectStatus(await dataApi('content', key, { url: `${site.url}/hang?id=${uid()}`, timeout: 1_000 }), 408);
  assert.match(nav.json.error, /did not reach "domcontentloaded" within 1000 ms/);
  assert.ok(Date.now() - started < 10_000);

  // The stack runs the slack short (its production value is a unit test of lib/config/durations.ts).
  // The navigation gets time enough to succeed on a loaded machine; the page's wait then outlasts the budget.
  const slackMs = settings().dataApiBudgetSlackMs;
  const navigationMs = 5_000;
  const budgetMs = navigationMs + slackMs;
  assert.ok(budgetMs < 30_000, "the budget runs out before the page's wait would end");
  const budgetStart = Date.now();
  const budget = expectStatus(await dataApi('content', key, { url: `${site.url}/basic`, timeout: navigationMs, waitForTimeout: 30_000 }), 408);
  const took = Date.now() - budgetStart;
  assert.equal(budget.json.error, `the call did not finish within its budget of ${budgetMs} ms (timeout + ${slackMs / 1000} s)`);
  assert.ok(took >= budgetMs - 100 && took < budgetMs + 5_000, `answered after ${took} ms`);
});

test('only 200s count toward monthly usage; no session row is written', async () => {
  const fresh = await newUser('usage');
  await addProvider(fresh.workspaceId, fresh.routerId, { slug: 'chromium', url: browser.wsUrl });
  const freshKey = await routerKey(fresh.workspaceId, fresh.routerId);
  assert.equal(await usage(fresh.workspaceId), 0);
  expectStatus(await dataApi('screenshot', freshKey, { url: `${site.url}/basic` }), 200);
  expectStatus(await dataApi('content', freshKey, { url: `${site.url}/missing` }), 200);
  await eventually(async () => (await usage(fresh.workspaceId)) === 2, 5_000, 'two calls counted');
  expectStatus(await dataApi('content', freshKey, { url: 'nope' }), 400);
  expectStatus(await dataApi('content', freshKey, { url: `${site.url}/hang?id=${uid()}`, timeout: 1_000 }), 408);
  expectStatus(await dataApi('screenshot', freshKey, { url: `${site.url}/basic`, provider: 'absent' }), 400);
  expectStatus(await dataApi('content', freshKey, { url: `http://127.0.0.1:${await freePort()}/` }), 500);
  // A counted call after the failures: when it shows, every earlier write has landed too.
  expectStatus(await dataApi('scrape', freshKey, { url: `${site.url}/basic`, formats: ['text'] }), 200);
  await eventually(async () => (await usage(fresh.workspaceId)) === 3, 5_000, 'the third call counted');
  const { db } = await import('../../lib/db');
  assert.equal(await db.sessionLog.count({ where: { workspaceId: fresh.workspaceId } }), 0);
});

test('the provider connection is reused between calls; each call gets a fresh context', async () => {
  const relay = await countingRelay(browser.wsUrl);
  const other = await countingRelay(browser.wsUrl);
  const port = await freePort();
  const proxy = await startProxy({
    port,
    host: '127.0.0.1',
    proxyInstanceId: `reuse-${port}`,
    shutdownDrainMs: 500,
    dataApiIdleConnectionMs: 1_500,
    webhooks: false,
    jobs: false,
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    const owner = await newUser('reuse');
    const provider = await addProvider(owner.workspaceId, owner.routerId, { slug: 'relayed', url: relay.url });
    const reuseKey = await routerKey(owner.workspaceId, owner.routerId);
    const visit = async () => {
      const id = uid();
      const res = expectStatus(await dataApi('content', reuseKey, { url: `${site.url}/cookies?id=${id}`, formats: ['text'] }, { base }), 200);
      return { title: res.json.data.metadata.title as string, cookie: site.requests(id)[0]!.headers.cookie };
    };
    // Cookies (from the server and from script) and storage set by one call are gone in the next,
    // over the same connection: the page sees only the cookie of its own response.
    const clean = { title: 'cookie=server=yes;storage=', cookie: undefined };
    for (let i = 0; i < 3; i++) assert.deepEqual(await visit(), clean);
    assert.equal(relay.accepted, 1, 'three calls, one provider connection');

    // The provider went away under the cached connection: the next call reconnects by itself.
    relay.cut();
    await relay.openIs(0);
    assert.deepEqual(await visit(), clean);
    assert.equal(relay.accepted, 2);

    // A changed address drops the old connection and uses the new one.
    const { db } = await import('../../lib/db');
    const { encryptText } = await import('../../lib/crypto/encryption');
    await db.provider.update({ where: { id: provider.id }, data: { urlEncrypted: encryptText(other.url) } });
    await updateRouterRow(owner.routerId, {});
    await relay.openIs(0);
    await visit();
    assert.equal(other.accepted, 1);
    assert.equal(relay.accepted, 2);

    // Unused for the idle time (1.5 s here), the connection is closed.
    await other.openIs(0, 10_000);
  } finally {
    await proxy.stop();
    await Promise.all([relay.close(), other.close()]);
  }
});

test('a proxy shutdown lets running data-API calls finish; new ones get 503', async () => {
  const port = await freePort();
  const proxy = await startProxy({ port, host: '127.0.0.1', proxyInstanceId: `drain-data-${port}`, shutdownDrainMs: 10_000, webhooks: false, jobs: false });
  const base = `http://127.0.0.1:${port}`;
  const id = uid();
  const running = dataApi('content', key, { url: `${site.url}/slow-image?id=${id}`, waitUntil: 'load' }, { base });
  await site.seen(id, '/held.png');
  const stopped = proxy.stop();
  const refused = expectStatus(await dataApi('content', key, { url: `${site.url}/basic` }, { base }), 503);
  assert.equal(refused.json.success, false);
  site.release(id);
  assert.equal(expectStatus(await running, 200).json.data.metadata.title, 'loaded');
  await stopped;
});
