// The proxy follows provider and router changes at once: a provider fixed with PATCH is usable on
// the next connect (its cooldown and health verdict from the broken address are dropped), and a
// deleted router is forgotten, its health checks stopped.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { call, expectOk, newUser } from '../support/api';
import { launchChromium, type Chromium } from '../support/chromium';
import { cdp, connectUrl, eventually, expectOpened, expectRefused, fetchFromOwnAddress, PROXY, routerKey } from '../support/connect';
import { addProvider, updateRouterRow } from '../support/providers';
import { refusedUrl } from '../support/upstreams';

let browser: Chromium;
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser?.stop();
});

const STATUS = `${PROXY.replace(/^ws/, 'http')}/v1/status`;

async function providerStatus(key: string, slug: string): Promise<{ healthy: boolean; cooldownUntil: string | null }> {
  const body = (await (await fetch(STATUS, { headers: { authorization: `Bearer ${key}` } })).json()) as {
    providers: { slug: string; healthy: boolean; cooldownUntil: string | null }[];
  };
  return body.providers.find((p) => p.slug === slug)!;
}

test('a provider fixed with PATCH /v1/providers/:slug takes a pinned connect at once, not after its cooldown', async () => {
  const user = await newUser('fix-provider');
  // One failed attempt is enough to cool a provider down (30 s by default).
  await updateRouterRow(user.routerId, { cooldownMinRequestVolume: 1 });
  await addProvider(user.workspaceId, user.routerId, { slug: 'flaky', url: await refusedUrl() });
  const key = await routerKey(user.workspaceId, user.routerId);
  assert.match((await expectRefused(connectUrl(key, { provider: 'flaky' }), 502)).body, /flaky/);
  assert.match((await expectRefused(connectUrl(key, { provider: 'flaky' }), 503)).body, /cooling down, unhealthy or full/);
  const down = await providerStatus(key, 'flaky');
  assert.equal(down.healthy, false);
  assert.ok(down.cooldownUntil && Date.parse(down.cooldownUntil) > Date.now() + 20_000, 'marked down for a good while');

  expectOk(await call('PATCH', '/v1/providers/flaky', { auth: { token: user.token }, body: { url: browser.wsUrl } }));
  const s = await expectOpened(connectUrl(key, { provider: 'flaky' }));
  assert.equal(s.provider, 'flaky');
  assert.match((await cdp(s.ws, 'Browser.getVersion')).product, /Chrome/);
  s.ws.close();
  const up = await providerStatus(key, 'flaky');
  assert.deepEqual([up.healthy, up.cooldownUntil], [true, null]);
});

/** A TCP listener that counts the connections it accepts (a health check is one TCP connect). */
async function countingListener(): Promise<{ url: string; readonly count: number; close(): Promise<void> }> {
  let count = 0;
  const server = net.createServer((socket) => {
    count++;
    socket.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/devtools/browser/x`,
    get count() {
      return count;
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}

test('a deleted router is forgotten by the proxy: its provider is probed no more, other routers still are', async () => {
  const user = await newUser('forget-router');
  const auth = { token: user.token };
  const doomed = expectOk(await call('POST', '/v1/routers', { auth, body: { name: 'Doomed' } }), 201);
  const [gone, kept] = await Promise.all([countingListener(), countingListener()]);
  try {
    await addProvider(user.workspaceId, doomed.id, { slug: 'p', url: gone.url });
    await addProvider(user.workspaceId, user.routerId, { slug: 'p', url: kept.url });
    // Checks every 100 ms (below the API's 5 s minimum, written to the row directly) so the test is quick.
    await updateRouterRow(doomed.id, { healthCheckIntervalMs: 100 });
    await updateRouterRow(user.routerId, { healthCheckIntervalMs: 100 });
    // /v1/status loads each router into the proxy, which starts its health checks.
    for (const key of [doomed.apiKey.plaintextKey, await routerKey(user.workspaceId, user.routerId)]) {
      assert.equal((await fetch(STATUS, { headers: { authorization: `Bearer ${key}` } })).status, 200);
    }
    await eventually(() => gone.count >= 3 && kept.count >= 3, 10_000, 'health checks of both routers');

    expectOk(await call('DELETE', `/v1/routers/${doomed.id}`, { auth }));
    // A check already under way when the notification arrived lands within the next two rounds.
    const deletedAt = kept.count;
    await eventually(() => kept.count >= deletedAt + 2, 10_000, 'two more checks of the router that is left');
    const [goneAt, keptAt] = [gone.count, kept.count];
    await eventually(() => kept.count >= keptAt + 10, 10_000, 'ten more checks of the router that is left');
    assert.equal(gone.count, goneAt, `the deleted router was probed ${gone.count - goneAt} more times`);
    assert.equal((await fetchFromOwnAddress(STATUS, { headers: { authorization: `Bearer ${doomed.apiKey.plaintextKey}` } })).status, 401);
  } finally {
    await Promise.all([gone.close(), kept.close()]);
  }
});
