// Issue 10, section 3, over real sockets against the running stack: the failed-key throttle counts
// per client address (X-Forwarded-For's right-most entry behind TRUST_PROXY=1), refuses a throttled
// address's failed attempts with 429 and still lets its valid key in, on connect, /v1/status and the
// data API alike; and a managed provider answering "at capacity" is full, not failing: a second
// router sharing a full pool queues or fails over, never cools the pool down, and gets a session
// once the first router's session ends.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { newUser } from '../support/api';
import { launchChromium, type Chromium } from '../support/chromium';
import { connectUrl, eventually, expectOpened, isOpened, open, randomLoopback, routerKey, type Opened, type Refused } from '../support/connect';
import { dataApi, expectStatus, PROXY_HTTP } from '../support/data-api';
import { addProvider, notifyRouter, updateRouterRow } from '../support/providers';
import { startTestSite, type TestSite } from '../support/test-site';
import { freePort, waitForListening } from '../../scripts/lib/ports';
import { programRunner, startChild, stopChild } from '../../scripts/lib/processes';
import { startTestPool, TEST_TOKEN, type TestPool } from '../../proxy/pool/testing';

let browser: Chromium;
let site: TestSite;
before(async () => {
  [browser, site] = await Promise.all([launchChromium(), startTestSite()]);
});
after(async () => {
  await Promise.all([browser?.stop(), site?.close()]);
});

interface StatusBody {
  ok: boolean;
  queued: number;
  providers: { slug: string; healthy: boolean; active: number; cooldownUntil: string | null }[];
}

/** GET /v1/status from a chosen source address, with extra headers (X-Forwarded-For). */
function getStatus(
  key: string | null,
  options: { localAddress?: string; headers?: Record<string, string>; base?: string } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string; json: StatusBody | null }> {
  const url = new URL(`${options.base ?? PROXY_HTTP}/v1/status`);
  const headers: Record<string, string> = { ...options.headers };
  if (key !== null) headers.authorization = `Bearer ${key}`;
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, localAddress: options.localAddress ?? '127.0.0.1' }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => {
        let json: StatusBody | null = null;
        try {
          json = JSON.parse(text) as StatusBody;
        } catch {
          /* plain text */
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
  });
}

/** A key shaped like a real one that no router has (so the proxy does look it up). */
const unknownKey = () => `rkey_${randomBytes(32).toString('base64url')}`;

const statusOf = (r: Opened | Refused) => (isOpened(r) ? 101 : r.status);

test('a throttled address: its valid key still works on connect, status and the data API; its failed attempts get 429 with Retry-After; 127.0.0.1 is unaffected', async () => {
  const user = await newUser('throttle');
  await addProvider(user.workspaceId, user.routerId, { slug: 'a', url: browser.wsUrl });
  const key = await routerKey(user.workspaceId, user.routerId);
  const FROM = '127.0.0.2';

  const first: number[] = [];
  for (let i = 0; i < 10; i++) first.push(statusOf(await open(connectUrl(unknownKey()), {}, FROM)));
  assert.deepEqual(first, Array(10).fill(401), 'ten failures are answered 401');
  const tripped = await open(connectUrl(unknownKey()), {}, FROM);
  assert.equal(statusOf(tripped), 429, 'the eleventh is refused: the address is throttled');

  // The valid key from the same address: a session, its status, a data-API call.
  const session = await open(connectUrl(key), {}, FROM);
  assert.ok(isOpened(session), `a valid key from a throttled address connects (got ${statusOf(session)}: ${isOpened(session) ? '' : session.body})`);
  assert.equal(session.provider, 'a');
  const status = await getStatus(key, { localAddress: FROM });
  assert.equal(status.status, 200, status.text);
  assert.deepEqual(
    status.json?.providers.map((p) => p.slug),
    ['a'],
  );
  const page = expectStatus(await dataApi('content', key, { url: `${site.url}/basic`, formats: ['text'] }, { localAddress: FROM }), 200);
  assert.equal(page.json.success, true);
  session.ws.close();
  await session.closed;

  // Its failed attempts: a new bad key, the same one again, a malformed key and no key are all 429
  // with Retry-After, on the three endpoints.
  const repeated = unknownKey();
  for (const attempt of [unknownKey(), repeated, repeated, 'rkey_nope', '']) {
    const r = await open(connectUrl(attempt), {}, FROM);
    assert.ok(!isOpened(r), 'no session for a bad key');
    assert.equal(r.status, 429, `${attempt || '(none)'}: ${r.body}`);
    assert.ok(Number(r.headers['retry-after']) >= 1 && Number(r.headers['retry-after']) <= 60, `Retry-After: ${r.headers['retry-after']}`);
    assert.match(r.body, /too many failed attempts/);
  }
  const statusRefused = await getStatus(unknownKey(), { localAddress: FROM });
  assert.equal(statusRefused.status, 429);
  assert.ok(Number(statusRefused.headers['retry-after']) >= 1);
  const dataRefused = await dataApi('content', unknownKey(), { url: `${site.url}/basic` }, { localAddress: FROM });
  assert.equal(dataRefused.status, 429);
  assert.ok(Number(dataRefused.headers['retry-after']) >= 1);

  // After that flood the key that passed from this address still gets in.
  const again = await open(connectUrl(key), {}, FROM);
  assert.ok(isOpened(again), `got ${statusOf(again)}`);
  again.ws.close();
  await again.closed;

  // Another address is not throttled: its bad key is a 401, its valid key connects. (Not 127.0.0.1,
  // which every plain request of the files running beside this one comes from.)
  const other = randomLoopback();
  assert.equal(statusOf(await open(connectUrl(unknownKey()), {}, other)), 401);
  const fromOther = await open(connectUrl(key), {}, other);
  assert.ok(isOpened(fromOther));
  fromOther.ws.close();
  await fromOther.closed;
});

test('without TRUST_PROXY a client-sent X-Forwarded-For is ignored: the socket address counts', async () => {
  const FROM = '127.0.0.4';
  const statuses: number[] = [];
  for (let i = 0; i < 11; i++)
    statuses.push((await getStatus(unknownKey(), { localAddress: FROM, headers: { 'x-forwarded-for': `198.51.100.${i + 1}` } })).status);
  assert.deepEqual(statuses, [...Array(10).fill(401), 429]);
});

test('with TRUST_PROXY=1 the right-most X-Forwarded-For entry is the address that counts', async () => {
  const user = await newUser('trusted');
  await addProvider(user.workspaceId, user.routerId, { slug: 'a', url: browser.wsUrl });
  const key = await routerKey(user.workspaceId, user.routerId);
  // A proxy process of its own, started as the stack starts one, with TRUST_PROXY=1.
  const port = await freePort();
  const child = startChild(
    'proxy-trust',
    [programRunner, 'proxy/index.ts'],
    {
      ...process.env,
      SERVICE_NAME: 'proxy',
      HOST: '127.0.0.1',
      PORT: String(port),
      TRUST_PROXY: '1',
      PROXY_INSTANCE_ID: `trust-${port}`,
      SHUTDOWN_DRAIN_MS: '1000',
      ENCODE_CONCURRENCY: '0',
      WEBHOOK_DELIVERY: '0',
    },
    !process.env.TEST_VERBOSE,
  );
  try {
    await waitForListening(child, port, { name: 'proxy-trust' });
    const base = `http://127.0.0.1:${port}`;
    // Every request comes from the same socket address (the "reverse proxy" on 127.0.0.1).
    const via = (client: string, spoofed?: string) => ({
      base,
      localAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': spoofed ? `${spoofed}, ${client}` : client },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await getStatus(unknownKey(), via('203.0.113.7'))).status);
    assert.deepEqual(statuses, Array(10).fill(401));
    const throttled = await getStatus(unknownKey(), via('203.0.113.7'));
    assert.equal(throttled.status, 429);
    assert.ok(Number(throttled.headers['retry-after']) >= 1);
    // The throttled client's valid key works.
    assert.equal((await getStatus(key, via('203.0.113.7'))).status, 200);
    // Entries to the left are whatever the client sent: they choose nothing.
    assert.equal((await getStatus(unknownKey(), via('203.0.113.7', '192.0.2.1'))).status, 429);
    // Another client behind the same proxy (same socket address) is not throttled.
    assert.equal((await getStatus(unknownKey(), via('203.0.113.8'))).status, 401);
    // The connect endpoint follows the same rule.
    const refused = await open(`ws://127.0.0.1:${port}/v1/connect?token=${unknownKey()}`, { 'x-forwarded-for': '203.0.113.7' }, '127.0.0.1');
    assert.equal(statusOf(refused), 429);
    const session = await open(`ws://127.0.0.1:${port}/v1/connect?token=${key}`, { 'x-forwarded-for': '203.0.113.7' }, '127.0.0.1');
    assert.ok(isOpened(session), `got ${statusOf(session)}`);
    session.ws.close();
    await session.closed;
  } finally {
    await stopChild(child);
  }
});

/** A router of its own workspace whose providers are the given pool (managed, capacity 1) and others. */
async function routerOn(tag: string, pool: TestPool, extra: { slug: string; url: string; priority: number }[] = []) {
  const user = await newUser(tag);
  // Any failure would start a cooldown at once: a full answer counted as one shows immediately.
  await updateRouterRow(user.routerId, {
    strategy: 'priority-chain',
    cooldownMinRequestVolume: 1,
    cooldownFailureThreshold: 0,
    cooldownDefaultMs: 60_000,
    queueTimeoutMs: 60_000,
    connectionTimeoutMs: 30_000,
  });
  const provider = await addProvider(user.workspaceId, user.routerId, {
    slug: 'pool',
    url: `${pool.ws}/`,
    priority: 1,
    headers: { Authorization: `Bearer ${TEST_TOKEN}` },
  });
  const { db } = await import('../../lib/db');
  await db.provider.update({ where: { id: provider.id }, data: { capabilities: { providerKind: 'managed', advertisedMaxConcurrent: 1 } } });
  for (const p of extra) await addProvider(user.workspaceId, user.routerId, p);
  await notifyRouter(user.routerId);
  return { user, key: await routerKey(user.workspaceId, user.routerId) };
}

function poolOf(status: StatusBody | null) {
  const pool = status?.providers.find((p) => p.slug === 'pool');
  assert.ok(pool, 'the pool is listed');
  return pool;
}

test('two routers share one full pool: the second queues (no cooldown) and gets a session when the first one ends; a router with another provider fails over', async () => {
  // The pool tests' own token (proxy/pool/testing.ts), sent as the provider's header.
  const pool = await startTestPool({ capacity: 1 });
  try {
    const a = await routerOn('fullA', pool);
    const b = await routerOn('fullB', pool);
    const c = await routerOn('fullC', pool, [{ slug: 'spare', url: browser.wsUrl, priority: 2 }]);

    // Router A takes the pool's only browser.
    const first = await expectOpened(connectUrl(a.key));
    assert.equal(first.provider, 'pool');
    assert.equal(pool.pool.status().active, 1);

    // Router B's engine thinks the pool is free (it shares nothing with A's): the pool says full.
    let bSettled = false;
    const second = open(connectUrl(b.key)).finally(() => {
      bSettled = true;
    });
    const waiting = await eventually(
      async () => {
        const s = (await getStatus(b.key)).json;
        return s && s.queued === 1 ? s : null;
      },
      20_000,
      'router B to queue for the full pool',
    );
    assert.equal(bSettled, false);
    assert.equal(poolOf(waiting).healthy, true, 'not unhealthy');
    assert.equal(poolOf(waiting).cooldownUntil, null, 'not cooling down');

    // Router C has a spare provider: it fails over at once, and does not cool the pool down either.
    const third = await expectOpened(connectUrl(c.key));
    assert.equal(third.provider, 'spare');
    const cStatus = (await getStatus(c.key)).json;
    assert.equal(poolOf(cStatus).healthy, true);
    assert.equal(poolOf(cStatus).cooldownUntil, null);
    third.ws.close();

    // A's session ends: B's waiting connection gets the pool.
    first.ws.close();
    await first.closed;
    const served = await second;
    assert.ok(isOpened(served), `B got ${statusOf(served)}: ${isOpened(served) ? '' : served.body}`);
    assert.equal(served.provider, 'pool');
    const after = (await getStatus(b.key)).json;
    assert.equal(after?.queued, 0);
    assert.equal(poolOf(after).cooldownUntil, null);
    assert.equal(poolOf(after).healthy, true);
    served.ws.close();
    await served.closed;

    // The data API follows the same rule: A holds the pool again, B's call waits for it.
    await eventually(() => pool.pool.status().active === 0, 20_000, 'the pool to free its browser');
    const again = await expectOpened(connectUrl(a.key));
    assert.equal(again.provider, 'pool');
    let callDone = false;
    const call = dataApi('content', b.key, { url: `${site.url}/basic`, formats: ['text'] }).finally(() => {
      callDone = true;
    });
    await eventually(async () => (await getStatus(b.key)).json?.queued === 1, 20_000, 'the data-API call to queue for the full pool');
    assert.equal(callDone, false);
    assert.equal(poolOf((await getStatus(b.key)).json).cooldownUntil, null);
    again.ws.close();
    const res = expectStatus(await call, 200);
    assert.equal(res.json.provider, 'pool');
    assert.equal(poolOf((await getStatus(b.key)).json).cooldownUntil, null);
  } finally {
    await pool.stop();
  }
});
