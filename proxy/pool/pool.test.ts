// The pool with real Chromium and real clients: sessions, capacity, auth, status, clean-up.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import { isRunning } from '../../scripts/lib/processes';
import {
  auth,
  cdp,
  openSocket,
  processesUnder,
  refusal,
  startPageServer,
  startTestPool,
  TEST_TOKEN as TOKEN,
  waitFor,
  type PageServer,
  type TestPool,
} from './testing';

let pool: TestPool;
let pages: PageServer;

before(async () => {
  [pool, pages] = await Promise.all([startTestPool({ capacity: 2 }), startPageServer()]);
});
after(async () => {
  await pool.stop();
  await pages.close();
});

const get = (p: string, headers: Record<string, string> = auth) => fetch(`${pool.http}${p}`, { headers });
const sessions = async () => ((await (await get('/pool/sessions')).json()) as { sessions: { id: string; pid: number; state: string }[] }).sessions;

async function assertGone(session: { id: string; pid: number }, userDataDir: string) {
  await waitFor('browser process gone', () => !isRunning(session.pid));
  await waitFor('no process uses the user-data-dir', async () => (await processesUnder(userDataDir)).length === 0);
  await waitFor('user-data-dir removed', () => !existsSync(userDataDir));
  await waitFor('session forgotten', async () => (await sessions()).length === 0);
}

test('status and /json/version answer in the managed-provider shapes', async () => {
  const status = await (await get('/pool/status')).json();
  assert.deepEqual(
    {
      kind: status.kind,
      version: status.version,
      capacity: status.capacity,
      active: status.active,
      calibrating: status.calibrating,
      indexedDb: status.indexedDb,
    },
    { kind: 'managed', version: 1, capacity: 2, active: 0, calibrating: false, indexedDb: true },
  );
  assert.equal(typeof status.launchMs, 'number');
  assert.match(status.browser, /Chrome\/\d+/);

  const version = await (await get('/json/version')).json();
  assert.match(version.Browser, /Chrome\/\d+/);
  assert.equal(version['Protocol-Version'], '1.3');
  assert.match(version['User-Agent'], /HeadlessChrome/);
  assert.equal(version.webSocketDebuggerUrl, `${pool.ws}/devtools/browser`);
  const viaQuery = await (await get(`/json/version?token=${TOKEN}`, {})).json();
  assert.equal(viaQuery.webSocketDebuggerUrl, `${pool.ws}/devtools/browser?token=${TOKEN}`);
});

test('without the token or with a wrong one: 401, and no browser starts', async () => {
  for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: `Bearer ${TOKEN}x` }] as Record<string, string>[]) {
    assert.equal((await get('/pool/status', headers)).status, 401);
    assert.deepEqual(await refusal(pool.ws, headers), { status: 401, body: 'unauthorized' });
  }
  assert.deepEqual(await refusal(`${pool.ws}/?token=nope`), { status: 401, body: 'unauthorized' });
  assert.equal(pool.pool.sessions.size, 0);
  assert.deepEqual(await processesUnder(pool.dataDir), []);
  assert.equal((await refusal(`${pool.ws}/elsewhere`, auth)).status, 404);
});

test('Playwright drives a fresh browser through the pool; closing it removes browser and directory', async () => {
  const browser = await chromium.connectOverCDP(pool.ws, { headers: auth });
  const [session] = await sessions();
  assert.ok(session && session.state === 'open' && isRunning(session.pid));
  const userDataDir = pool.pool.sessions.get(session.id)!.userDataDir;
  assert.ok(existsSync(userDataDir));
  const page = await browser.contexts()[0]!.newPage();
  await page.goto(`${pages.origin}/`);
  assert.equal(await page.evaluate(() => `${document.querySelector('#p')!.textContent} ${6 * 7}`), 'hello from the test server 42');
  assert.equal((await (await get('/pool/status')).json()).active, 1);
  await browser.close();
  await assertGone(session, userDataDir);
});

test('a CDP client that starts from the http:// address (via /json/version) also works', async () => {
  const browser = await chromium.connectOverCDP(`${pool.http}/`, { headers: auth });
  assert.match(browser.version(), /^\d+\./);
  const [session] = await sessions();
  const userDataDir = pool.pool.sessions.get(session!.id)!.userDataDir;
  await browser.close();
  await assertGone(session!, userDataDir);
});

test('over capacity: 503 before the upgrade; a browser that dies closes its client with 1011', async () => {
  const a = await openSocket(`${pool.ws}/devtools/browser`, auth);
  const b = await openSocket(`${pool.ws}/?token=${TOKEN}`);
  assert.match(a.sessionId, /^[0-9a-f-]{36}$/);
  assert.match(a.snapshotKey, /^[A-Za-z0-9_-]{43}$/); // 32 random bytes, base64url
  assert.notEqual(a.snapshotKey, b.snapshotKey);
  assert.equal((await cdp(a.ws, 1, 'Browser.getVersion')).result?.protocolVersion, '1.3');
  assert.deepEqual(await refusal(pool.ws, auth), { status: 503, body: 'pool at capacity (2 sessions)' });
  assert.equal(pool.pool.sessions.size, 2);

  const sessionA = pool.pool.sessions.get(a.sessionId)!;
  const dirA = sessionA.userDataDir;
  process.kill(sessionA.pid!, 'SIGKILL'); // a crash
  const closeA = await a.closed;
  assert.equal(closeA.code, 1011);
  assert.match(closeA.reason, /^the browser (exited unexpectedly|disconnected without closing the WebSocket)$/);
  await waitFor('crashed session cleaned up', async () => !existsSync(dirA) && (await processesUnder(dirA)).length === 0);

  const sessionB = pool.pool.sessions.get(b.sessionId)!;
  const pidB = sessionB.pid!;
  b.ws.close();
  await assertGone({ id: b.sessionId, pid: pidB }, sessionB.userDataDir);
  assert.deepEqual(await processesUnder(pool.dataDir), []);
});

for (const hangUp of ['reset', 'FIN'] as const) {
  test(`a client that hangs up (${hangUp}) while its browser starts leaves nothing behind`, async () => {
    const socket = net.connect(pool.port, '127.0.0.1');
    socket.on('error', () => {});
    socket.write(
      `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
    );
    const session = await waitFor('session launching', () => [...pool.pool.sessions.values()][0]);
    // A FIN alone (the socket half-closed, no reset) must be noticed as well.
    if (hangUp === 'reset') socket.destroy();
    else socket.end();
    await waitFor('session gone', () => pool.pool.sessions.size === 0);
    assert.equal(session.state, 'closed');
    assert.ok(!existsSync(session.userDataDir));
    assert.deepEqual(await processesUnder(pool.dataDir), []);
    assert.equal(pool.pool.snapshots.get(session.id), undefined); // never opened: no snapshot
    socket.destroy();
  });
}
