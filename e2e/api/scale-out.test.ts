// Several proxies and web processes on one database (docs/deployment.md): three proxy processes
// and two web processes of the test's own share the test stack's PostgreSQL and a real Chromium
// behind counting relays (the providers). Provider limits hold across the proxies, waiters on one
// proxy are woken by slots freed on another, a close request reaches the proxy holding the
// session, the live view is asked of the proxy holding the session, and a proxy killed with SIGKILL has its slots freed and its sessions settled in the
// stated time while the others carry on. All five processes keep their blobs on an S3-compatible
// server (s3rver): a recording made through one proxy is played through a web process.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import WebSocket from 'ws';
import { db } from '../../lib/db';
import { freePort, waitForListening } from '../../scripts/lib/ports';
import { programRunner, stopChild } from '../../scripts/lib/processes';
import { PROXY_STOPPED } from '../../lib/sessions/session-writer';
import { chromium } from 'playwright-core';
import { call, expectOk, newUser, signIn, type TestUser } from '../support/api';
import { readEvents } from '../support/sse';
import { userWithProvider } from '../support/capture';
import { ticks } from '../support/invisibility';
import { startS3Server, type S3Server } from '../support/s3-server';
import { startTestSite, type TestSite } from '../support/test-site';
import { framesOfChunk, recordingFolder } from '../../lib/recordings/format';
import { launchChromium, type Chromium } from '../support/chromium';
import { cdp, eventually, isOpened, open, routerKey, type Opened } from '../support/connect';
import { addProvider, countingRelay, updateRouterRow, type CountingRelay } from '../support/providers';

/** Short, so the kill test is quick; the bound is 1.25 × this (docs/deployment.md). */
const LEASE_TTL_MS = 4_000;
const quiet = !process.env.TEST_VERBOSE;

interface Proc {
  name: string;
  port: number;
  child: ChildProcess;
}

let browser: Chromium;
let s3: S3Server;
let site: TestSite;
const relays: CountingRelay[] = [];
const proxies: Proc[] = [];
const webs: Proc[] = [];

/** The program in one process (scripts/run.mjs, no wrapper): a SIGKILL reaches the proxy itself. */
function spawnProcess(name: string, script: string, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, [programRunner, script], { env: { ...process.env, ...s3.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.on('data', (chunk: Buffer) => {
      if (!quiet) for (const line of chunk.toString().split('\n')) if (line.trim()) process.stderr.write(`[${name}] ${line}\n`);
    });
  }
  return child;
}

async function startProxyProcess(name: string): Promise<Proc> {
  const port = await freePort();
  const child = spawnProcess(name, 'proxy/index.ts', {
    SERVICE_NAME: name,
    HOST: '127.0.0.1',
    PORT: String(port),
    PROXY_INSTANCE_ID: `${name}-${port}`,
    LEASE_TTL_MS: String(LEASE_TTL_MS),
    SHUTDOWN_DRAIN_MS: '1000',
    ENCODE_CONCURRENCY: '0',
  });
  return { name, port, child };
}

async function startWebProcess(name: string): Promise<Proc> {
  const port = await freePort();
  const child = spawnProcess(name, 'scripts/web-server.ts', { SERVICE_NAME: name, HOST: '127.0.0.1', WEB_PORT: String(port) });
  return { name, port, child };
}

before(async () => {
  [browser, s3, site] = await Promise.all([launchChromium(), startS3Server({ bucket: 'scale-out' }), startTestSite()]);
  const started = await Promise.all([
    startProxyProcess('proxy-1'),
    startProxyProcess('proxy-2'),
    startProxyProcess('proxy-3'),
    startWebProcess('web-1'),
    startWebProcess('web-2'),
  ]);
  proxies.push(...started.slice(0, 3));
  webs.push(...started.slice(3));
  await Promise.all(started.map((p) => waitForListening(p.child, p.port, { name: p.name })));
});

after(async () => {
  await Promise.all([...proxies, ...webs].map((p) => stopChild(p.child, 5_000)));
  await Promise.all(relays.map((r) => r.close()));
  await Promise.all([browser?.stop(), s3?.close(), site?.close()]);
});

test("the recipe's migration step (npm run db:migrate) finds the shared database up to date, and refuses without DATABASE_URL", async () => {
  const run = (env: NodeJS.ProcessEnv) =>
    new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, [programRunner, 'scripts/migrate.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
      child.on('exit', (code) => resolve({ code, out }));
    });
  const migrated = await run(process.env);
  assert.equal(migrated.code, 0, migrated.out);
  assert.match(migrated.out, /the database is up to date/);
  const { DATABASE_URL: _unset, ...without } = process.env;
  const refused = await run(without);
  assert.equal(refused.code, 2);
  assert.match(refused.out, /DATABASE_URL is not set/);
});

const connectAt = (proxy: Proc, key: string) => `ws://127.0.0.1:${proxy.port}/v1/connect?token=${key}`;

/** A workspace whose router has the given providers (each a counting relay in front of Chromium). */
async function routerWith(limits: number[], queue: { queueMaxSize: number; queueTimeoutMs: number }) {
  const user = await newUser('scale');
  const providers: { id: string; relay: CountingRelay }[] = [];
  for (const [i, limit] of limits.entries()) {
    const relay = await countingRelay(browser.wsUrl);
    relays.push(relay);
    const row = await addProvider(user.workspaceId, user.routerId, { slug: `p${i}`, url: relay.url, maxConcurrent: limit });
    providers.push({ id: row.id, relay });
  }
  await updateRouterRow(user.routerId, { ...queue, cooldownDefaultMs: 0 });
  return { user, providers, key: await routerKey(user.workspaceId, user.routerId) };
}

/** Opens a session and proves it works (one CDP round trip through the proxy to Chromium). */
async function session(url: string): Promise<Opened> {
  const opened = await open(url);
  if (!isOpened(opened)) throw new Error(`refused ${opened.status}: ${opened.body}`);
  if (opened.ws.readyState !== WebSocket.OPEN) await new Promise((r) => opened.ws.once('open', r));
  const reply = await cdp(opened.ws, 'Browser.getVersion');
  assert.match(reply.product, /Chrome/);
  return opened;
}

async function end(opened: Opened): Promise<void> {
  opened.ws.close();
  await opened.closed;
}

/** Connections waiting in this proxy's queue for the key's router (GET /v1/status). */
async function queuedAt(proxy: Proc, key: string): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${proxy.port}/v1/status`, { headers: { authorization: `Bearer ${key}` } });
  return ((await res.json()) as { queued: number }).queued;
}

const settledRows = (user: TestUser) => db.sessionLog.groupBy({ by: ['state'], where: { routerId: user.routerId }, _count: true });

test('100 concurrent connects over three proxies: never more than 3 at a provider, none lost, every row settled', async () => {
  const { user, providers, key } = await routerWith([3, 3], { queueMaxSize: 500, queueTimeoutMs: 120_000 });
  const outcomes = await Promise.all(
    Array.from({ length: 100 }, async (_, i) => {
      const proxy = proxies[i % 3]!;
      const opened = await session(connectAt(proxy, key));
      // Use the browser a little while, as a short script would (a few more round trips).
      for (let k = 0; k < 2 + (i % 5); k++) await cdp(opened.ws, 'Target.getTargets');
      await end(opened);
      return { proxy: proxy.name, provider: opened.provider };
    }),
  );
  assert.equal(outcomes.length, 100);
  for (const { relay } of providers) {
    assert.ok(relay.peak <= 3, `a provider had ${relay.peak} sessions at once`);
    assert.ok(relay.accepted > 0, 'both providers were used');
  }
  assert.equal(
    providers.reduce((n, p) => n + p.relay.accepted, 0),
    100,
  );
  const rows = await eventually(
    async () => {
      const groups = await settledRows(user);
      return groups.length === 1 && groups[0]!.state === 'closed' && groups[0]!._count === 100 ? groups : null;
    },
    20_000,
    'every session row closed',
  );
  assert.equal(rows[0]!._count, 100);
  // Every slot is back in the shared count.
  for (const { id } of providers) assert.equal((await db.providerState.findUnique({ where: { providerId: id } }))?.active, 0);
});

test('a waiter on one proxy is woken by a slot freed on another, well before its fallback timer', async () => {
  // A queue timeout shorter than the full-retry fallback (1 s): only the notification can serve it.
  const { key } = await routerWith([1], { queueMaxSize: 10, queueTimeoutMs: 900 });
  const holder = await session(connectAt(proxies[0]!, key));
  const waiting = session(connectAt(proxies[1]!, key));
  // The waiter is queued on proxy 2 once its lease was refused there.
  await eventually(async () => (await queuedAt(proxies[1]!, key)) === 1 || null, 5_000, 'the waiter queued');
  await end(holder);
  const served = await waiting;
  assert.equal(served.provider, 'p0');
  await end(served);
});

test('a close request through either web process reaches the proxy holding the session', async () => {
  const { user, key } = await routerWith([3], { queueMaxSize: 10, queueTimeoutMs: 10_000 });
  const opened = await session(connectAt(proxies[2]!, key));
  const closed = await call('POST', `/v1/sessions/${opened.sessionId}/close`, { auth: { token: user.token }, base: `http://127.0.0.1:${webs[1]!.port}` });
  assert.equal(expectOk(closed).state, 'closed');
  const { code } = await opened.closed;
  assert.equal(code, 4000);
  const row = await eventually(
    async () => {
      const r = await db.sessionLog.findUnique({ where: { id: opened.sessionId } });
      return r?.state === 'closed' ? r : null;
    },
    10_000,
    'the row closed',
  );
  assert.ok(row.endedAt);
  // The other web process lists it the same way.
  const listed = expectOk(await call('GET', `/v1/sessions/${opened.sessionId}`, { auth: { token: user.token }, base: `http://127.0.0.1:${webs[0]!.port}` }));
  assert.equal(listed.state, 'closed');
});

test('kill -9 of a proxy with sessions and waiters: its slots freed within the bound, its sessions errored, the others unaffected', async () => {
  const { user, providers, key } = await routerWith([3], { queueMaxSize: 50, queueTimeoutMs: 60_000 });
  const victim = await startProxyProcess('proxy-victim');
  await waitForListening(victim.child, victim.port, { name: victim.name });
  proxies.push(victim);
  const survivor = await session(connectAt(proxies[0]!, key));
  const doomed = [await session(connectAt(victim, key)), await session(connectAt(victim, key))];
  // The provider is full: waiters queue on the victim and on another proxy.
  const victimWaiters = [open(connectAt(victim, key)), open(connectAt(victim, key))].map((p) => p.catch((error: Error) => error));
  const waiters = [session(connectAt(proxies[1]!, key)), session(connectAt(proxies[1]!, key))];
  await eventually(async () => ((await queuedAt(victim, key)) === 2 && (await queuedAt(proxies[1]!, key)) === 2) || null, 10_000, 'two waiters queued on each');

  const killedAt = Date.now();
  victim.child.kill('SIGKILL');
  await new Promise((r) => victim.child.once('exit', r));
  // Its clients see their connections drop.
  for (const opened of doomed) await opened.closed;
  for (const waiter of await Promise.all(victimWaiters)) assert.ok(!('ws' in waiter) || waiter.ws.readyState !== WebSocket.OPEN);

  // The waiters on proxy 2 get the two slots the dead proxy held, within the stated bound.
  const served = await Promise.all(waiters);
  const freedAfterMs = Date.now() - killedAt;
  assert.ok(freedAfterMs <= 1.25 * LEASE_TTL_MS + 2_000, `slots freed after ${freedAfterMs} ms`);
  assert.ok(providers[0]!.relay.peak <= 3, `the provider had ${providers[0]!.relay.peak} sessions at once`);

  // Its sessions are settled as errored by another proxy.
  const settled = await eventually(
    async () => {
      const rows = await db.sessionLog.findMany({ where: { id: { in: doomed.map((d) => d.sessionId) } } });
      return rows.length === 2 && rows.every((r) => r.state === 'errored') ? rows : null;
    },
    1.25 * LEASE_TTL_MS + 5_000,
    "the dead proxy's sessions settled",
  );
  for (const row of settled) assert.equal(row.errorReason, PROXY_STOPPED);

  // The session on another proxy never noticed.
  assert.equal(survivor.ws.readyState, WebSocket.OPEN);
  const reply = await cdp(survivor.ws, 'Browser.getVersion');
  assert.match(reply.product, /Chrome/);
  assert.equal((await db.sessionLog.findUnique({ where: { id: survivor.sessionId } }))?.state, 'active');
  for (const opened of [survivor, ...served]) await end(opened);
  await eventually(
    async () => {
      const groups = await settledRows(user);
      return groups.every((g) => g.state !== 'active') || null;
    },
    10_000,
    'no session left active',
  );
});

test('a recording written through one proxy on the S3-compatible store is played through a web process', { timeout: 120_000 }, async () => {
  const user = await userWithProvider('scale-rec', browser.wsUrl);
  const pw = await chromium.connectOverCDP(`ws://127.0.0.1:${proxies[0]!.port}/v1/connect?token=${user.key}&session_record=true`);
  const page = pw.contexts()[0]!.pages()[0] ?? (await pw.contexts()[0]!.newPage());
  await page.goto(`${site.url}/animated`);
  await ticks(page, 40);
  await pw.close();

  const web = `http://127.0.0.1:${webs[1]!.port}`;
  const auth = { auth: { token: user.token }, base: web };
  const replay = await eventually(
    async () => {
      const list = expectOk(await call('GET', '/v1/replays', auth));
      return list.replays[0]?.complete ? list.replays[0] : null;
    },
    30_000,
    'the recording complete',
  );
  assert.ok(replay.frameCount > 0);
  const manifest = expectOk(await call('GET', `/v1/replays/${replay.id}/manifest`, auth));
  assert.equal(manifest.frames.length, replay.frameCount);
  // The first frame's bytes, through the other web process, are the JPEG the manifest points at.
  const first = manifest.frames[0];
  const chunk = await fetch(`http://127.0.0.1:${webs[0]!.port}/v1/replays/${replay.id}/chunks/${first.chunk}`, {
    headers: { authorization: `Bearer ${user.token}` },
  });
  assert.equal(chunk.status, 200);
  const bytes = Buffer.from(await chunk.arrayBuffer());
  assert.deepEqual(bytes.subarray(first.offset, first.offset + 2), Buffer.from([0xff, 0xd8]));
  assert.equal([...framesOfChunk(bytes)][0]!.length, first.length);
  // Stored in the bucket, not on the local disk of the test stack.
  const { S3Client, ListObjectsV2Command } = await import('@aws-sdk/client-s3');
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `${recordingFolder(replay.id)}/` }));
  assert.ok((listed.Contents ?? []).length >= 2, 'the chunk and manifest are objects in the bucket');
  client.destroy();
});

test('the live view of a session held by one proxy is watched through a web process that is not next to it', { timeout: 120_000 }, async () => {
  const user = await userWithProvider('scale-live', browser.wsUrl);
  const web = `http://127.0.0.1:${webs[1]!.port}`;
  const { cookie } = await signIn(user.email, user.password, web);
  const pw = await chromium.connectOverCDP(`ws://127.0.0.1:${proxies[2]!.port}/v1/connect?token=${user.key}&session_record=true`);
  try {
    const page = pw.contexts()[0]!.pages()[0] ?? (await pw.contexts()[0]!.newPage());
    await page.goto(`${site.url}/animated?title=far-away`);
    const row = await eventually(
      () => db.sessionLog.findFirst({ where: { routerId: user.routerId, state: 'active', recording: { isNot: null } } }),
      10_000,
      'the recorded session row',
    );
    // Held by proxy 3: the web process has no proxy of its own to ask but the run's registered address.
    assert.match(row.proxyInstanceId ?? '', /^proxy-3-/);
    const abort = new AbortController();
    const response = await fetch(`${web}/api/sessions/${row.id}/live`, { headers: { cookie }, signal: abort.signal });
    if (response.status !== 200) assert.fail(`live view answered ${response.status}: ${await response.text()}`);
    const events = await readEvents(response, (e) => e.filter((x) => x.event === 'frame').length >= 2);
    abort.abort();
    assert.equal(events[0]?.event, 'tabs');
    assert.ok(
      events[0]!.data.tabs.some((t: { url: string }) => t.url.includes('far-away')),
      JSON.stringify(events[0]!.data),
    );
    assert.ok(events.filter((e) => e.event === 'frame').length >= 2, 'frames arrived');
  } finally {
    await pw.close();
  }
});
