// Failover for each trigger, pinning rules, cooldown entry and exit.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { newUser } from '../support/api';
import { launchChromium, type Chromium } from '../support/chromium';
import { cdp, connectUrl, eventually, expectOpened, expectRefused, PROXY, routerKey } from '../support/connect';
import { dataApi, expectStatus } from '../support/data-api';
import { addProvider, updateRouterRow } from '../support/providers';
import { refusedUrl, startHangingUpstream, startRejectingUpstream, type Upstream } from '../support/upstreams';

let browser: Chromium;
let refusing: { url: string };
let hanging: Upstream;
let rejecting: Upstream;
before(async () => {
  [browser, hanging, rejecting] = await Promise.all([launchChromium(), startHangingUpstream(), startRejectingUpstream(403)]);
  refusing = { url: await refusedUrl() };
});
after(async () => {
  await Promise.all([browser?.stop(), hanging?.stop(), rejecting?.stop()]);
});

async function routerWith(tag: string, bad: { url: string }, settings: Record<string, unknown> = {}) {
  const user = await newUser(tag);
  await updateRouterRow(user.routerId, { strategy: 'priority-chain', connectionTimeoutMs: 1_000, ...settings });
  await addProvider(user.workspaceId, user.routerId, { slug: 'bad', url: bad.url, priority: 1 });
  await addProvider(user.workspaceId, user.routerId, { slug: 'good', url: browser.wsUrl, priority: 2 });
  return { user, key: await routerKey(user.workspaceId, user.routerId) };
}

for (const [trigger, upstream] of [
  ['refused', () => refusing],
  ['stalls after TCP accept (timeout)', () => hanging],
  ['upgrade rejected', () => rejecting],
] as const) {
  test(`failover when the first provider is ${trigger}`, async () => {
    const { user, key } = await routerWith(`fo-${trigger.split(' ')[0]}`, upstream());
    const started = Date.now();
    const opened = await expectOpened(connectUrl(key));
    assert.equal(opened.provider, 'good');
    assert.ok(Date.now() - started < 3_000, 'within the connection timeout plus the good connect');
    assert.match((await cdp(opened.ws, 'Browser.getVersion')).product, /Chrome/);
    opened.ws.close();
    const { db } = await import('../../lib/db');
    const row = await eventually(() => db.sessionLog.findUnique({ where: { id: opened.sessionId } }));
    assert.equal(row.providerSlug, 'good');
    void user;
  });
}

test('every provider failing → 502 listing each attempt', async () => {
  const user = await newUser('fo502');
  await updateRouterRow(user.routerId, { strategy: 'priority-chain', connectionTimeoutMs: 1_000, cooldownMinRequestVolume: 100 });
  await addProvider(user.workspaceId, user.routerId, { slug: 'r1', url: refusing.url, priority: 1 });
  await addProvider(user.workspaceId, user.routerId, { slug: 'h1', url: hanging.url, priority: 2 });
  await addProvider(user.workspaceId, user.routerId, { slug: 'x1', url: rejecting.url, priority: 3 });
  const refused = await expectRefused(connectUrl(await routerKey(user.workspaceId, user.routerId)), 502);
  assert.match(refused.body, /r1: connection refused/);
  assert.match(refused.body, /h1: no WebSocket handshake within 1000 ms/);
  assert.match(refused.body, /x1: upgrade rejected with HTTP 403/);
});

test('a pinned provider gets no failover; pinning the good one works', async () => {
  const { key } = await routerWith('pin', refusing, { cooldownMinRequestVolume: 100 });
  const refused = await expectRefused(connectUrl(key, { provider: 'bad' }), 502);
  assert.doesNotMatch(refused.body, /good/);
  const opened = await expectOpened(connectUrl(key, { provider: 'good' }));
  assert.equal(opened.provider, 'good');
  opened.ws.close();
});

test('cooldown: failures over the threshold take a provider out, then it comes back', async () => {
  const { key, user } = await routerWith('cool', refusing, { cooldownDefaultMs: 1_500, cooldownMinRequestVolume: 2, cooldownFailureThreshold: 0.5 });
  for (let i = 0; i < 2; i++) {
    const s = await expectOpened(connectUrl(key));
    assert.equal(s.provider, 'good');
    s.ws.close();
  }
  const status = async () =>
    (
      (await (await fetch(`${PROXY.replace(/^ws/, 'http')}/v1/status?token=${key}`)).json()) as {
        providers: { slug: string; healthy: boolean; cooldownUntil: string | null }[];
      }
    ).providers;
  const bad = (await status()).find((p) => p.slug === 'bad')!;
  assert.equal(bad.healthy, false);
  assert.ok(bad.cooldownUntil && Date.parse(bad.cooldownUntil) > Date.now());
  // During cooldown the pinned provider is refused at once with 503, without an attempt.
  assert.match((await expectRefused(connectUrl(key, { provider: 'bad' }), 503)).body, /cooling down/);
  await eventually(async () => (await status()).find((p) => p.slug === 'bad')!.cooldownUntil === null, 5_000, 'cooldown end');
  void user;
});

test('nothing can free a slot before the queue timeout (the only provider cooling down past it): connect and the data API answer 503 at once, not 429 after the timeout', async () => {
  const user = await newUser('fo-hopeless');
  await updateRouterRow(user.routerId, {
    connectionTimeoutMs: 1_000,
    queueTimeoutMs: 20_000,
    cooldownDefaultMs: 60_000,
    cooldownMinRequestVolume: 1,
    cooldownFailureThreshold: 0.5,
  });
  await addProvider(user.workspaceId, user.routerId, { slug: 'bad', url: refusing.url });
  const key = await routerKey(user.workspaceId, user.routerId);
  assert.match((await expectRefused(connectUrl(key), 502)).body, /bad: /);
  const started = Date.now();
  assert.match((await expectRefused(connectUrl(key), 503)).body, /no provider can take the session now \(cooling down or unhealthy\)/);
  assert.match(
    expectStatus(await dataApi('content', key, { url: 'https://example.com/' }), 503).json.error,
    /no provider is available \(cooling down or unhealthy\)/,
  );
  assert.ok(Date.now() - started < 5_000, `at once, not after the 20 s queue timeout: ${Date.now() - started} ms`);
});
