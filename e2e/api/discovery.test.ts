// CDP discovery on the proxy: GET /json/version answers a valid router key with a
// webSocketDebuggerUrl back to the proxy's /v1/connect (other query parameters kept, a single-use
// ticket in place of the key), so Playwright's connectOverCDP('http://…') and a puppeteer client
// that reads /json/version work through the proxy. The key appears in no response body.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { call, expectOk, newUser } from '../support/api';
import { launchChromium, type Chromium } from '../support/chromium';
import { cdp, eventually, expectOpened, expectRefused, PROXY, randomLoopback, routerKey } from '../support/connect';
import { addProvider } from '../support/providers';

const PROXY_HTTP = PROXY.replace(/^ws/, 'http');

let browserA: Chromium;
let browserB: Chromium;
before(async () => {
  [browserA, browserB] = await Promise.all([launchChromium(), launchChromium()]);
});
after(async () => {
  await Promise.all([browserA?.stop(), browserB?.stop()]);
});

interface Got {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function get(path: string, headers: Record<string, string> = {}, localAddress = randomLoopback()): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${PROXY_HTTP}${path}`, { headers, localAddress }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

async function twoProviderRouter(tag: string) {
  const user = await newUser(tag);
  await addProvider(user.workspaceId, user.routerId, { slug: 'a', url: browserA.wsUrl, priority: 1 });
  await addProvider(user.workspaceId, user.routerId, { slug: 'b', url: browserB.wsUrl, priority: 2 });
  return { user, key: await routerKey(user.workspaceId, user.routerId) };
}

test("Playwright connectOverCDP over http:// through the proxy, at the root or the connect URL's own http:// form: a page evaluates 1+1", async () => {
  const { user, key } = await twoProviderRouter('disc-pw');
  // The last: the connect URL a user copies, with http:// for ws:// (Playwright reads /v1/connect/json/version/ under it).
  for (const base of [`${PROXY_HTTP}/?token=${key}&provider=b`, `${PROXY_HTTP}?provider=a&token=${key}`, `${PROXY_HTTP}/v1/connect?token=${key}&provider=b`]) {
    const browser = await chromium.connectOverCDP(base);
    const context = browser.contexts()[0] ?? (await browser.newContext());
    const page = await context.newPage();
    assert.equal(await page.evaluate(() => 1 + 1), 2);
    await browser.close();
  }
  const { db } = await import('../../lib/db');
  const rows = await eventually(
    async () => {
      const found = await db.sessionLog.findMany({ where: { workspaceId: user.workspaceId }, orderBy: { startedAt: 'asc' } });
      return found.length === 3 && found.every((r) => r.state === 'closed') ? found : null;
    },
    5_000,
    'the three sessions closed',
  );
  assert.deepEqual(
    rows.map((r) => r.providerSlug),
    ['b', 'a', 'b'],
    'provider= of the http address reaches the connect',
  );
});

test('GET /json/version(/): the WebSocket URL points back at the proxy with a single-use ticket, never the key', async () => {
  const { key } = await twoProviderRouter('disc-raw');
  for (const path of ['/json/version', '/json/version/']) {
    const got = await get(`${path}?provider=b&token=${key}`);
    assert.equal(got.status, 200, got.body);
    assert.equal(got.body.includes(key), false, 'the key is not echoed');
    assert.match(String(got.headers['cache-control']), /no-store/);
    const body = JSON.parse(got.body) as { Browser: string; 'Protocol-Version': string; webSocketDebuggerUrl: string };
    assert.equal(body['Protocol-Version'], '1.3');
    const ws = new URL(body.webSocketDebuggerUrl);
    assert.equal(`${ws.protocol}//${ws.host}${ws.pathname}`, `${PROXY}/v1/connect`);
    assert.equal(ws.searchParams.get('provider'), 'b');
    assert.equal(ws.searchParams.get('token'), null);
    assert.match(ws.searchParams.get('ticket') ?? '', /^ctkt_[A-Za-z0-9_-]{43}$/);

    const s = await expectOpened(body.webSocketDebuggerUrl);
    assert.equal(s.provider, 'b');
    assert.match((await cdp(s.ws, 'Browser.getVersion')).product, /Chrome/);
    s.ws.close();
    const reused = await expectRefused(body.webSocketDebuggerUrl, 401);
    assert.match(reused.body, /ticket unknown, already used or expired/);
  }
  // The key as a bearer header works the same.
  const viaHeader = await get('/json/version', { authorization: `Bearer ${key}` });
  assert.equal(viaHeader.status, 200);
  assert.equal(viaHeader.body.includes(key), false);
});

test('under /v1/connect too: /json/version answers the same; /json and /json/list answer an empty list; all check the key', async () => {
  const { key } = await twoProviderRouter('disc-paths');
  for (const path of ['/v1/connect/json/version', '/v1/connect/json/version/']) {
    const got = await get(`${path}?token=${key}&provider=a`);
    assert.equal(got.status, 200, got.body);
    assert.equal(got.body.includes(key), false);
    const ws = new URL((JSON.parse(got.body) as { webSocketDebuggerUrl: string }).webSocketDebuggerUrl);
    assert.equal(`${ws.protocol}//${ws.host}${ws.pathname}`, `${PROXY}/v1/connect`);
    assert.equal(ws.searchParams.get('provider'), 'a');
  }
  for (const path of ['/json', '/json/', '/json/list', '/json/list/', '/v1/connect/json', '/v1/connect/json/list']) {
    const got = await get(`${path}?token=${key}`);
    assert.deepEqual([got.status, JSON.parse(got.body)], [200, []], path);
    const refused = await get(path);
    assert.equal(refused.status, 401, path);
  }
});

test('a bad or missing key is 401 like a connect, its text never holding the key; failures throttle the same', async () => {
  const { key } = await twoProviderRouter('disc-bad');
  const bad = `rkey_${'x'.repeat(43)}`;
  const address = randomLoopback();
  for (const path of [`/json/version?token=${bad}`, '/json/version/', `/json/version?token=${bad}-oops`]) {
    const got = await get(path, {}, address);
    assert.equal(got.status, 401, got.body);
    assert.match(got.body, /router key missing, wrong or revoked/);
    assert.equal(got.body.includes(bad), false);
  }
  for (let i = 0; i < 7; i++) assert.equal((await get(`/json/version?token=rkey_${String(i).padStart(43, 'y')}`, {}, address)).status, 401);
  const throttled = await get(`/json/version?token=${bad}`, {}, address);
  assert.equal(throttled.status, 429);
  assert.ok(Number(throttled.headers['retry-after']) > 0);
  assert.equal(throttled.body.includes(bad), false);
  assert.equal((await get(`/json/version?token=${key}`, {}, address)).status, 200, 'a valid key from a throttled address still works');
});

test('a ticket of a key revoked since is refused', async () => {
  const { user, key } = await twoProviderRouter('disc-revoked');
  const body = JSON.parse((await get(`/json/version?token=${key}`)).body) as { webSocketDebuggerUrl: string };
  const keyId = expectOk(await call('GET', '/v1/api-keys', { auth: { token: user.token } })).items[0].id as string;
  expectOk(await call('DELETE', `/v1/api-keys/${keyId}`, { auth: { token: user.token } }));
  await expectRefused(body.webSocketDebuggerUrl, 401);
});

test('puppeteer: browserWSEndpoint read from /json/version works; browserURL cannot carry the key and is refused', async () => {
  const { key } = await twoProviderRouter('disc-pptr');
  const { webSocketDebuggerUrl } = JSON.parse((await get(`/json/version?token=${key}`)).body) as { webSocketDebuggerUrl: string };
  const browser = await puppeteer.connect({ browserWSEndpoint: webSocketDebuggerUrl });
  const page = await browser.newPage();
  assert.equal(await page.evaluate(() => 1 + 1), 2);
  await page.close();
  await browser.disconnect();
  // puppeteer reads new URL('/json/version', browserURL): the query (and so the key) is dropped,
  // and it sends no headers there. The proxy refuses it as a missing key.
  await assert.rejects(puppeteer.connect({ browserURL: `${PROXY_HTTP}/?token=${key}` }), (error: Error) => {
    assert.match(error.message, /json\/version/);
    assert.equal(error.message.includes(key), false);
    return true;
  });
});
