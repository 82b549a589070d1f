// The egress policy over real sockets (docs/security.md). The shared test stack runs with
// PRIVATE_NETWORK=allow (its pages and browsers are local); this file also starts a web process
// and a proxy of its own with the default, `deny`, on the same database. Every place the service
// connects for a tenant is tried: provider create, PATCH, test, test-url, probe and connect dial;
// webhook create, PATCH and delivery; data-API urls.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { call, expectError, expectOk, newUser, type Res, type TestUser } from '../support/api';
import { launchChromium, type Chromium } from '../support/chromium';
import { expectOpened, open, isOpened, routerKey } from '../support/connect';
import { dataApi } from '../support/data-api';
import { addProvider, uniqueSlug } from '../support/providers';
import { startReceiver, type Receiver } from '../support/webhook-receiver';
import { freePort, waitForListening } from '../../scripts/lib/ports';
import { programRunner, startChild, stopChild } from '../../scripts/lib/processes';

const WEB_PORT = Number(process.env.WEB_PORT);
const PROXY_PORT = Number(process.env.PORT);
const DB_PORT = Number(new URL(process.env.DATABASE_URL!).port);
const POOL_WS = process.env.LOCAL_POOL_URL!;

let chromium: Chromium;
let receiver: Receiver;
let denyWeb: string;
let denyProxy: string;
const children: ChildProcess[] = [];

before(async () => {
  [chromium, receiver] = await Promise.all([launchChromium(), startReceiver()]);
  const [webPort, proxyPort] = await Promise.all([freePort(), freePort()]);
  const env = { ...process.env, PRIVATE_NETWORK: 'deny', WEB_PORT: String(webPort), PORT: String(proxyPort), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  children.push(startChild('web-deny', [programRunner, 'scripts/web-server.ts'], { ...env, SERVICE_NAME: 'web' }, !process.env.TEST_VERBOSE));
  children.push(
    startChild(
      'proxy-deny',
      [programRunner, 'proxy/index.ts'],
      { ...env, SERVICE_NAME: 'proxy', ENCODE_CONCURRENCY: '0', WEBHOOK_DELIVERY: '0' },
      !process.env.TEST_VERBOSE,
    ),
  );
  await Promise.all([waitForListening(children[0]!, webPort, { name: 'web-deny' }), waitForListening(children[1]!, proxyPort, { name: 'proxy-deny' })]);
  denyWeb = `http://127.0.0.1:${webPort}`;
  denyProxy = `http://127.0.0.1:${proxyPort}`;
});

after(async () => {
  await Promise.all(children.map((c) => stopChild(c, 5_000)));
  await Promise.all([chromium?.stop(), receiver?.close()]);
});

const loopbackBrowser = () => chromium.wsUrl; // ws://127.0.0.1:<port>/devtools/browser/<id>
const withHost = (url: string, host: string) => url.replace('127.0.0.1', host);

function expectPolicyRefusal(res: Res, pattern = /PRIVATE_NETWORK/) {
  expectError(res, 400, 'validation_error');
  assert.match(res.body.error.message, /^url: /);
  // One sentence, and on the field in `details`, where the dashboard places it.
  assert.doesNotMatch(res.body.error.message, /; /);
  assert.deepEqual(
    res.body.error.details?.map((d: { path: string }) => d.path),
    ['url'],
  );
  assert.match(res.body.error.message, pattern);
}

describe('PRIVATE_NETWORK=deny (the default)', () => {
  let user: TestUser;
  before(async () => {
    user = await newUser('deny');
  });

  test('provider create, test-url and probe refuse loopback in every spelling, and names that resolve to it', async () => {
    const auth = { token: user.token };
    const browserPort = new URL(loopbackBrowser()).port;
    const spellings = [
      loopbackBrowser(),
      withHost(loopbackBrowser(), 'localhost'),
      withHost(loopbackBrowser(), '2130706433'),
      withHost(loopbackBrowser(), '0177.0.0.1'),
      withHost(loopbackBrowser(), '[::ffff:127.0.0.1]'),
      `http://127.0.0.1:${browserPort}`,
      'ws://10.0.0.1:9222/',
      'ws://169.254.169.254/',
    ];
    for (const url of spellings) {
      expectPolicyRefusal(await call('POST', '/v1/providers', { base: denyWeb, auth, body: { slug: uniqueSlug(), url } }), /PRIVATE_NETWORK/);
      expectPolicyRefusal(await call('POST', '/v1/providers/test-url', { base: denyWeb, auth, body: { url } }));
      expectPolicyRefusal(await call('POST', '/v1/providers/probe', { base: denyWeb, auth, body: { url } }));
    }
    const listed = expectOk(await call('GET', '/v1/providers', { base: denyWeb, auth }));
    assert.equal(listed.items.length, 0, 'nothing was saved');
  });

  test('PATCH to a loopback address and the test of a stored loopback provider are refused; nothing is dialled', async () => {
    const auth = { token: user.token };
    const slug = uniqueSlug('stored');
    await addProvider(user.workspaceId, user.routerId, { slug, url: loopbackBrowser() });
    expectPolicyRefusal(await call('POST', `/v1/providers/${slug}/test`, { base: denyWeb, auth }));
    expectPolicyRefusal(await call('POST', `/v1/providers/${slug}/reprobe`, { base: denyWeb, auth }));
    expectPolicyRefusal(await call('PATCH', `/v1/providers/${slug}`, { base: denyWeb, auth, body: { url: withHost(loopbackBrowser(), 'localhost') } }));
    // The same calls on the allow stack succeed: the refusal is the policy, not the browser.
    assert.equal(expectOk(await call('POST', `/v1/providers/${slug}/test`, { auth })).ok, true);
  });

  test('connect: a stored loopback provider is not dialled (502 naming the policy), and the next connect gets a 503 at once that names it too; the local pool is exempt', async () => {
    const tenant = await newUser('deny-connect');
    await addProvider(tenant.workspaceId, tenant.routerId, { slug: 'loop', url: loopbackBrowser() });
    const key = await routerKey(tenant.workspaceId, tenant.routerId);
    const url = `${denyProxy.replace('http', 'ws')}/v1/connect?token=${key}`;
    const refused = await open(url);
    assert.ok(!isOpened(refused), 'no session through a loopback provider');
    assert.equal(refused.status, 502);
    assert.match(refused.body, /egress policy/);
    assert.match(refused.body, /PRIVATE_NETWORK/);
    // The refusal lasts until the policy or the address changes: a 503 without queueing (a wait
    // for a cooldown to end would be a 429 after the router's queue timeout).
    const outOfRotation = await open(url);
    assert.ok(!isOpened(outOfRotation));
    assert.equal(outOfRotation.status, 503);
    assert.match(outOfRotation.body, /cooling down or unhealthy\) \(last failure: refused by the egress policy: .*PRIVATE_NETWORK/);

    const pooled = await newUser('deny-pool');
    await addProvider(pooled.workspaceId, pooled.routerId, { slug: 'pool', url: POOL_WS });
    const session = await expectOpened(`${denyProxy.replace('http', 'ws')}/v1/connect?token=${await routerKey(pooled.workspaceId, pooled.routerId)}`);
    session.ws.close();
    await session.closed;
  });

  test('webhooks: create and PATCH refuse a loopback receiver; a stored one is not delivered to', async () => {
    const auth = { token: user.token };
    expectPolicyRefusal(await call('POST', '/v1/webhooks', { base: denyWeb, auth, body: { label: 'loop', url: `${receiver.url}/deny` } }));
    expectPolicyRefusal(
      await call('POST', '/v1/webhooks', { base: denyWeb, auth, body: { label: 'meta', url: 'http://169.254.169.254/latest' } }),
      /whatever PRIVATE_NETWORK says/,
    );
    // Stored while the install allowed it (the allow stack), then tried from the deny process.
    const hook = expectOk(await call('POST', '/v1/webhooks', { auth, body: { label: 'stored', url: `${receiver.url}/stored?token=s3cret` } }), 201);
    expectPolicyRefusal(await call('PATCH', `/v1/webhooks/${hook.id}`, { base: denyWeb, auth, body: { url: `http://localhost:${receiver.port}/x` } }));
    const sent = expectOk(await call('POST', `/v1/webhooks/${hook.id}/test`, { base: denyWeb, auth }));
    assert.equal(sent.delivered, false, JSON.stringify(sent));
    assert.match(sent.error, /^refused by the egress policy: 127\.0\.0\.1 is a loopback address, refused under PRIVATE_NETWORK=deny/);
    assert.doesNotMatch(JSON.stringify(sent), /s3cret/);
    assert.equal(receiver.on('/stored').length, 0, 'the receiver got nothing');
  });

  test('data API: a loopback provider is not dialled (503 "failed to connect" naming the policy); the next call is a 503 at once that names it too', async () => {
    const tenant = await newUser('deny-data-provider');
    await addProvider(tenant.workspaceId, tenant.routerId, { slug: 'loop', url: loopbackBrowser() });
    const key = await routerKey(tenant.workspaceId, tenant.routerId);
    const first = await dataApi('content', key, { url: 'https://example.com/' }, { base: denyProxy });
    assert.equal(first.status, 503, first.text);
    assert.match(first.json.error, /^every eligible provider failed to connect:\n- loop: refused by the egress policy: .*PRIVATE_NETWORK/);
    const next = await dataApi('content', key, { url: 'https://example.com/' }, { base: denyProxy });
    assert.equal(next.status, 503, next.text);
    assert.match(next.json.error, /\(last failure: refused by the egress policy: .*PRIVATE_NETWORK/);
  });

  test('data API: loopback, private and link-local urls are a 400 on url before any browser is used', async () => {
    const pooled = await newUser('deny-data');
    await addProvider(pooled.workspaceId, pooled.routerId, { slug: 'pool', url: POOL_WS });
    const key = await routerKey(pooled.workspaceId, pooled.routerId);
    for (const url of [
      `http://127.0.0.1:${receiver.port}/`,
      `http://localhost:${receiver.port}/`,
      'http://2130706433/',
      'http://192.168.1.1/',
      'http://169.254.169.254/latest/meta-data/',
    ]) {
      const res = await dataApi('content', key, { url }, { base: denyProxy });
      assert.equal(res.status, 400, `${url}: ${res.text}`);
      assert.equal(res.json.details[0].field, 'url');
      assert.match(res.json.error, /PRIVATE_NETWORK/);
    }
  });
});

describe('PRIVATE_NETWORK=allow (the shared stack)', () => {
  let user: TestUser;
  before(async () => {
    user = await newUser('allow');
  });

  test("link-local and metadata addresses and the product's own ports stay refused for providers", async () => {
    const auth = { token: user.token };
    for (const url of [
      'ws://169.254.169.254/',
      'ws://[fe80::1]:9222/',
      `ws://127.0.0.1:${DB_PORT}/`,
      `ws://127.0.0.1:${PROXY_PORT}/v1/connect`,
      `http://localhost:${WEB_PORT}/`,
    ]) {
      expectPolicyRefusal(await call('POST', '/v1/providers', { auth, body: { slug: uniqueSlug(), url } }), /whatever PRIVATE_NETWORK says/);
      expectPolicyRefusal(await call('POST', '/v1/providers/test-url', { auth, body: { url } }), /whatever PRIVATE_NETWORK says/);
    }
    // A loopback browser is a single-tenant install's own Chrome: allowed.
    expectOk(await call('POST', '/v1/providers', { auth, body: { slug: uniqueSlug('own'), url: loopbackBrowser() } }), 201);
  });

  test("webhooks and data-API urls may not reach the product's own ports or metadata", async () => {
    const auth = { token: user.token };
    expectPolicyRefusal(await call('POST', '/v1/webhooks', { auth, body: { label: 'own', url: `http://127.0.0.1:${WEB_PORT}/api/health` } }), /own ports/);
    expectPolicyRefusal(await call('POST', '/v1/webhooks', { auth, body: { label: 'meta', url: 'http://[::ffff:169.254.169.254]/' } }), /link-local/);
    const pooled = await newUser('allow-data');
    await addProvider(pooled.workspaceId, pooled.routerId, { slug: 'pool', url: POOL_WS });
    const key = await routerKey(pooled.workspaceId, pooled.routerId);
    const poolPort = new URL(POOL_WS).port;
    for (const url of [`http://127.0.0.1:${poolPort}/pool/sessions`, `http://127.0.0.1:${DB_PORT}/`, 'http://169.254.169.254/latest/meta-data/']) {
      const res = await dataApi('content', key, { url });
      assert.equal(res.status, 400, `${url}: ${res.text}`);
      assert.match(res.json.error, /whatever PRIVATE_NETWORK says/);
    }
    // A local page is fine under allow.
    const ok = await dataApi('content', key, { url: `${receiver.url}/page`, formats: ['text'] });
    assert.equal(ok.status, 200, ok.text);
  });
});
