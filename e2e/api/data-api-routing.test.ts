// The data API goes through the router's engine like /v1/connect: failover before the browser
// action, pinning rules, the queue (429 on timeout, 503 when full or off) and maxConcurrent, which
// counts data-API calls and connect sessions alike.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { newUser } from '../support/api';
import { launchChromium, type Chromium } from '../support/chromium';
import { connectUrl, eventually, expectOpened, expectRefused, routerKey } from '../support/connect';
import { dataApi, expectStatus, PROXY_HTTP } from '../support/data-api';
import { addProvider, updateRouterRow } from '../support/providers';
import { refusedUrl, startHangingUpstream, startRejectingUpstream, type Upstream } from '../support/upstreams';
import { startTestSite, type TestSite } from '../support/test-site';

let browser: Chromium;
let site: TestSite;
let refusing: { url: string };
let hanging: Upstream;
let rejecting: Upstream;
const uid = () => Math.random().toString(36).slice(2, 10);

before(async () => {
  [browser, site, hanging, rejecting] = await Promise.all([launchChromium(), startTestSite(), startHangingUpstream(), startRejectingUpstream(403)]);
  refusing = { url: await refusedUrl() };
});
after(async () => {
  await Promise.all([browser?.stop(), site?.close(), hanging?.stop(), rejecting?.stop()]);
});

// A stall is only seen through the connection timeout, so the tests about stalls set the shortest
// one (1 s). The rest keep the default: on a loaded machine a cold connectOverCDP to a healthy
// Chromium (attach to every page, enable its domains) can take over a second.
async function router(tag: string, settings: Record<string, unknown>, providers: { slug: string; url: string; priority?: number; maxConcurrent?: number }[]) {
  const user = await newUser(tag);
  await updateRouterRow(user.routerId, { strategy: 'priority-chain', ...settings });
  for (const p of providers) await addProvider(user.workspaceId, user.routerId, p);
  return { user, key: await routerKey(user.workspaceId, user.routerId) };
}

const status = async (key: string) =>
  (await (await fetch(`${PROXY_HTTP}/v1/status?token=${key}`)).json()) as { queued: number; providers: { slug: string; active: number; healthy: boolean }[] };

for (const [trigger, upstream] of [
  ['refuses', () => refusing],
  ['stalls (connection timeout)', () => hanging],
  ['rejects the upgrade', () => rejecting],
] as const) {
  test(`failover before the action when the first provider ${trigger}`, async () => {
    const stalls = upstream() === hanging;
    const { key } = await router(`dfo-${trigger.split(' ')[0]}`, { cooldownMinRequestVolume: 100, ...(stalls && { connectionTimeoutMs: 1_000 }) }, [
      { slug: 'bad', url: upstream().url, priority: 1 },
      { slug: 'good', url: browser.wsUrl, priority: 2 },
    ]);
    // Under the 1 s timeout the good provider must not pay for a cold connect: a pinned call
    // opens the connection the failover then reuses (it still opens a new context within 1 s).
    if (stalls) assert.equal(expectStatus(await dataApi('content', key, { url: `${site.url}/basic`, provider: 'good' }), 200).json.provider, 'good');
    const res = expectStatus(await dataApi('content', key, { url: `${site.url}/basic` }), 200);
    assert.equal(res.headers['x-provider-slug'], 'good');
    assert.equal(res.json.provider, 'good');
  });
}

test('no failover once the action started: a failing page is 500 on the provider that ran it', async () => {
  const { key } = await router('dnofo', {}, [
    { slug: 'first', url: browser.wsUrl, priority: 1 },
    { slug: 'second', url: browser.wsUrl, priority: 2 },
  ]);
  const res = expectStatus(await dataApi('screenshot', key, { url: `http://127.0.0.1:${new URL(refusing.url).port}/` }), 500);
  assert.equal(res.json.success, false);
  assert.match(res.json.error, /navigation failed: net::ERR_CONNECTION_REFUSED/);
  const providers = (await status(key)).providers;
  assert.ok(
    providers.every((p) => p.healthy),
    'a page failure does not count against the provider',
  );
});

test('every provider failing to connect → 503 listing the attempts; only timeouts → 408', async () => {
  const { key } = await router('dall', { cooldownMinRequestVolume: 100 }, [
    { slug: 'r1', url: refusing.url, priority: 1 },
    { slug: 'x1', url: rejecting.url, priority: 2 },
  ]);
  const res = expectStatus(await dataApi('content', key, { url: `${site.url}/basic` }), 503);
  assert.match(res.json.error, /every eligible provider failed to connect/);
  assert.match(res.json.error, /r1: /);
  assert.match(res.json.error, /x1: /);
  const slow = await router('dslow', { cooldownMinRequestVolume: 100, connectionTimeoutMs: 1_000 }, [{ slug: 'h1', url: hanging.url }]);
  const timedOut = expectStatus(await dataApi('content', slow.key, { url: `${site.url}/basic` }), 408);
  assert.match(timedOut.json.error, /h1: no browser connection within 1000 ms/);
});

test('pinning: not on the router 400; failing pinned provider 503 without failover; cooling 503; full 503', async () => {
  const { key } = await router('dpin', { cooldownMinRequestVolume: 1, cooldownFailureThreshold: 0.5, cooldownDefaultMs: 60_000 }, [
    { slug: 'bad', url: refusing.url, priority: 1 },
    { slug: 'good', url: browser.wsUrl, priority: 2, maxConcurrent: 1 },
  ]);
  const body = { url: `${site.url}/basic` };
  assert.match(expectStatus(await dataApi('content', key, { ...body, provider: 'nope' }), 400).json.error, /"nope" is not on this router/);
  const failed = expectStatus(await dataApi('content', key, { ...body, provider: 'bad' }), 503);
  assert.doesNotMatch(failed.json.error, /good/);
  // That failure put "bad" into cooldown (minimum volume 1): pinned calls are refused at once.
  assert.match(expectStatus(await dataApi('content', key, { ...body, provider: 'bad' }), 503).json.error, /cooling down/);
  assert.equal(expectStatus(await dataApi('content', key, { ...body, provider: 'good' }), 200).json.provider, 'good');
  const holder = await expectOpened(connectUrl(key, { provider: 'good' }));
  assert.match(expectStatus(await dataApi('content', key, { ...body, provider: 'good' }), 503).json.error, /"good" is full/);
  holder.ws.close();
});

test('queue: timeout → 429 with Retry-After; full → 503; a waiter gets the freed slot; queue off → 503', async () => {
  const { key } = await router('dqueue', { queueMaxSize: 1, queueTimeoutMs: 600 }, [{ slug: 'one', url: browser.wsUrl, maxConcurrent: 1 }]);
  const body = { url: `${site.url}/basic` };
  const holder = await expectOpened(connectUrl(key));
  const started = Date.now();
  const timedOut = expectStatus(await dataApi('content', key, body), 429);
  assert.ok(Date.now() - started >= 550);
  assert.equal(timedOut.headers['retry-after'], '5');
  assert.match(timedOut.json.error, /stayed busy/);

  holder.ws.close();

  // A longer queue timeout: one waiter fills the queue of size 1, the next is refused at once.
  const second = await router('dqueue2', { queueMaxSize: 1, queueTimeoutMs: 20_000 }, [{ slug: 'one', url: browser.wsUrl, maxConcurrent: 1 }]);
  const busy = await expectOpened(connectUrl(second.key));
  const waiting = dataApi('content', second.key, body);
  await eventually(async () => (await status(second.key)).queued === 1, 5_000, 'the call to queue');
  assert.match(expectStatus(await dataApi('content', second.key, body), 503).json.error, /queue is full/);
  busy.ws.close();
  assert.equal(expectStatus(await waiting, 200).json.provider, 'one');

  await updateRouterRow(second.user.routerId, { queueMaxSize: 0 });
  const again = await expectOpened(connectUrl(second.key));
  await eventually(async () => (await dataApi('content', second.key, body)).status === 503, 15_000, 'queue off → 503');
  again.ws.close();
});

test('maxConcurrent counts data-API calls: 5 calls at maxConcurrent 2 run two at a time, all are served', async () => {
  const { key } = await router('dmax', { queueMaxSize: 10, queueTimeoutMs: 30_000 }, [{ slug: 'two', url: browser.wsUrl, maxConcurrent: 2 }]);
  const ids = Array.from({ length: 5 }, uid);
  const calls = ids.map((id) => dataApi('content', key, { url: `${site.url}/slow-image?id=${id}`, waitUntil: 'load', formats: ['text'] }));
  const started = () => ids.filter((id) => site.requests(id).some((r) => r.path === '/held.png'));
  await eventually(() => started().length === 2, 10_000, 'two calls to start');
  // The other three wait in the router queue (each gets there once authenticated).
  const first = await eventually(
    async () => {
      const now = await status(key);
      return now.queued === 3 ? now : null;
    },
    10_000,
    'three calls to queue',
  );
  assert.equal(first.providers[0]!.active, 2);
  const peaks: number[] = [];
  const released: string[] = [];
  while (released.length < ids.length) {
    const next = started().find((id) => !released.includes(id))!;
    site.release(next);
    released.push(next);
    if (released.length < ids.length) await eventually(() => started().length > released.length, 10_000, 'the next call to start');
    peaks.push((await status(key)).providers[0]!.active);
  }
  (await Promise.all(calls)).forEach((r) => expectStatus(r, 200));
  assert.ok(Math.max(...peaks) <= 2, `active while draining: ${peaks.join(',')}`);
  // While a data-API call holds the only slot, a connect waits for it like any session.
  const { key: single } = await router('dmax1', { queueMaxSize: 0 }, [{ slug: 'one', url: browser.wsUrl, maxConcurrent: 1 }]);
  const id = uid();
  const holding = dataApi('content', single, { url: `${site.url}/slow-image?id=${id}`, waitUntil: 'load' });
  await site.seen(id, '/held.png');
  await expectRefused(connectUrl(single), 429);
  site.release(id);
  expectStatus(await holding, 200);
});
