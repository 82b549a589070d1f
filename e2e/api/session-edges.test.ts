// The edges of a session through the real proxy (both lanes) and the real pool: a client that
// goes away ends its session within a second even when its browser is stopped (SIGSTOP), with the
// slot released and the row written; a client that hangs up while its connect is dialled cancels
// the dial (no browser left started, no slot, no row); a browser that crashes ends the session
// `errored` with a reason, on an address provider and on the pool.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import net from 'node:net';
import { newUser } from '../support/api';
import { launchChromium, type Chromium } from '../support/chromium';
import { cdp, connectUrl, eventually, expectOpened, fetchFromOwnAddress, POOL_HTTP, POOL_WS, PROXY, routerKey } from '../support/connect';
import { addProvider, setConnectionTimeout } from '../support/providers';
import { freePort } from '../../scripts/lib/ports';
import { startProxy, type ProxyServer } from '../../proxy/server';

let pipeline: ProxyServer;
let pipelineBase: string;
before(async () => {
  const port = await freePort();
  pipeline = await startProxy({
    port,
    host: '127.0.0.1',
    proxyInstanceId: `edges-${port}`,
    shutdownDrainMs: 100,
    lane: 'pipeline',
    webhooks: false,
    jobs: false,
  });
  pipelineBase = `ws://127.0.0.1:${port}`;
});
after(async () => {
  await pipeline?.stop();
});

const lanes = [
  { name: 'fast', base: () => PROXY },
  { name: 'pipeline', base: () => pipelineBase },
];
const urlOn = (base: string, key: string) => connectUrl(key).replace(PROXY, base);

async function row(sessionId: string) {
  const { db } = await import('../../lib/db');
  return db.sessionLog.findUnique({ where: { id: sessionId } });
}

/** The provider's live count across the proxies (its /v1/status). */
async function active(base: string, key: string): Promise<number> {
  const res = await fetch(`${base.replace(/^ws/, 'http')}/v1/status`, { headers: { authorization: `Bearer ${key}` } });
  const body = (await res.json()) as { providers: { active: number }[] };
  return body.providers.reduce((n, p) => n + p.active, 0);
}

/**
 * The provider's slot is given back: the count is the shared one (docs/deployment.md), written by
 * the release's own statement a moment after the session or dial ends.
 */
async function slotFreed(base: string, key: string): Promise<void> {
  await eventually(async () => (await active(base, key)) === 0 || null, 15_000, 'the provider slot to be free');
}

/** A raw upgrade request to the proxy, for hanging up with a FIN or a reset mid-connect. */
function rawUpgrade(url: string): net.Socket {
  const u = new URL(url.replace(/^ws/, 'http'));
  const socket = net.connect(Number(u.port), u.hostname);
  socket.on('error', () => {});
  socket.write(
    `GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
  );
  return socket;
}

async function poolSessions(): Promise<{ id: string; pid: number | null; state: string }[]> {
  const res = await fetch(`${POOL_HTTP}/pool/sessions`, { headers: { authorization: `Bearer ${process.env.POOL_TOKEN}` } });
  return ((await res.json()) as { sessions: { id: string; pid: number | null; state: string }[] }).sessions;
}

for (const lane of lanes) {
  for (const goes of ['terminate', 'close'] as const) {
    test(`${lane.name} lane: a client that goes away (${goes}) while its browser is stopped ends the session within a second, slot released, row written`, async () => {
      const browser: Chromium = await launchChromium();
      try {
        const user = await newUser(`edge-${lane.name}-${goes}`);
        await addProvider(user.workspaceId, user.routerId, { slug: 'a', url: browser.wsUrl, maxConcurrent: 1 });
        const key = await routerKey(user.workspaceId, user.routerId);
        const s = await expectOpened(urlOn(lane.base(), key));
        await cdp(s.ws, 'Browser.getVersion');
        await eventually(() => row(s.sessionId), 15_000, 'the session row');
        process.kill(browser.pid, 'SIGSTOP');
        const t0 = Date.now();
        if (goes === 'terminate')
          s.ws.terminate(); // the socket ends without a close frame
        else s.ws.close(1000);
        // The row is written after the end; when the proxy ended it is its endedAt (below), so the
        // wait for the write is bounded only against a hang.
        const ended = await eventually(
          async () => {
            const r = await row(s.sessionId);
            return r && r.state !== 'active' ? r : null;
          },
          15_000,
          'the row to end',
        );
        assert.equal(ended.state, 'closed');
        assert.ok(ended.endedAt!.getTime() - t0 < 1_000, `ended ${ended.endedAt!.getTime() - t0} ms after the client left`);
        await slotFreed(lane.base(), key);
      } finally {
        process.kill(browser.pid, 'SIGCONT');
        await browser.stop();
      }
    });
  }

  for (const hangUp of ['FIN', 'reset'] as const) {
    test(`${lane.name} lane: a client that hangs up (${hangUp}) during the dial cancels it: the provider sees the dial dropped, no slot, no row`, async () => {
      // A provider that reads the upgrade request and then waits: the dial is in progress for as
      // long as we like. (Health checks connect too; only a socket that sent an upgrade is a dial.)
      const dials: net.Socket[] = [];
      const provider = net.createServer((socket) => {
        socket.on('error', () => {});
        socket.once('data', (request) => {
          if (/upgrade: websocket/i.test(request.toString())) dials.push(socket);
        });
      });
      await new Promise<void>((r) => provider.listen(0, '127.0.0.1', r));
      try {
        const user = await newUser(`dial-${lane.name}-${hangUp}`);
        await addProvider(user.workspaceId, user.routerId, {
          slug: 'slow',
          url: `ws://127.0.0.1:${(provider.address() as net.AddressInfo).port}/devtools/browser/x`,
        });
        await setConnectionTimeout(user.routerId, 30_000);
        const key = await routerKey(user.workspaceId, user.routerId);
        const client = rawUpgrade(urlOn(lane.base(), key));
        const dial = await eventually(() => dials[0], 5_000, 'the dial to reach the provider');
        let dropped = false;
        dial.once('close', () => (dropped = true));
        if (hangUp === 'FIN') client.end();
        else client.resetAndDestroy();
        const t0 = Date.now();
        await eventually(() => dropped, 1_000, 'the dial to be cancelled (within a second)');
        assert.ok(Date.now() - t0 < 1_000);
        await slotFreed(lane.base(), key);
        const { db } = await import('../../lib/db');
        assert.equal(await db.sessionLog.count({ where: { routerId: user.routerId } }), 0, 'no session row');
        client.destroy();
      } finally {
        for (const s of dials) s.destroy();
        await new Promise((r) => provider.close(r));
      }
    });
  }
}

for (const lane of lanes) {
  test(`${lane.name} lane: a Playwright script killed with SIGKILL ends its session within a second`, async () => {
    const browser = await launchChromium();
    try {
      const user = await newUser(`kill-${lane.name}`);
      await addProvider(user.workspaceId, user.routerId, { slug: 'a', url: browser.wsUrl });
      const key = await routerKey(user.workspaceId, user.routerId);
      // A real client process: connects, opens a page, says so, then waits to be killed.
      const script = `const { chromium } = require('playwright-core');
        (async () => { const b = await chromium.connectOverCDP(process.argv[1]); const p = await (b.contexts()[0] ?? await b.newContext()).newPage();
        await p.setContent('<p>x</p>'); console.log('ready'); setInterval(() => {}, 1000); })().catch((e) => { console.error(e); process.exit(1); });`;
      const child = spawn(process.execPath, ['-e', script, urlOn(lane.base(), key)], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
        child.once('exit', (code) => reject(new Error(`the client exited early (${code})`)));
      });
      const { db } = await import('../../lib/db');
      const live = await eventually(() => db.sessionLog.findFirst({ where: { routerId: user.routerId, state: 'active' } }), 15_000, 'the live row');
      const t0 = Date.now();
      child.kill('SIGKILL');
      const ended = await eventually(
        async () => {
          const r = await row(live.id);
          return r && r.state !== 'active' ? r : null;
        },
        1_500,
        'the row to end',
      );
      assert.equal(ended.state, 'closed');
      assert.ok(ended.endedAt!.getTime() - t0 < 1_000);
      await slotFreed(lane.base(), key);
    } finally {
      await browser.stop();
    }
  });
}

test('a client that hangs up while the pool starts its browser leaves no browser, no slot and no row', async () => {
  const user = await newUser('dial-pool');
  await addProvider(user.workspaceId, user.routerId, { slug: 'pool', url: POOL_WS });
  await setConnectionTimeout(user.routerId, 60_000);
  const key = await routerKey(user.workspaceId, user.routerId);
  const before = new Set((await poolSessions()).map((s) => s.id));
  const client = rawUpgrade(connectUrl(key));
  const launching = await eventually(async () => (await poolSessions()).find((s) => !before.has(s.id)), 30_000, 'the pool to start a browser');
  client.end(); // a FIN, nothing else
  await eventually(async () => !(await poolSessions()).some((s) => s.id === launching.id), 15_000, 'the pool session to go');
  await slotFreed(PROXY, key);
  const { db } = await import('../../lib/db');
  assert.equal(await db.sessionLog.count({ where: { routerId: user.routerId } }), 0, 'no session row');
  client.destroy();
});

for (const crash of ['Browser.crash', 'SIGKILL'] as const) {
  test(`a pool browser that crashes (${crash}) ends the session errored with a reason`, async () => {
    const user = await newUser(`crash-${crash === 'SIGKILL' ? 'kill' : 'cdp'}`);
    await addProvider(user.workspaceId, user.routerId, { slug: 'pool', url: POOL_WS });
    await setConnectionTimeout(user.routerId, 60_000);
    const key = await routerKey(user.workspaceId, user.routerId);
    const before = new Set((await poolSessions()).map((s) => s.id));
    const s = await expectOpened(connectUrl(key));
    await cdp(s.ws, 'Browser.getVersion');
    const pooled = await eventually(async () => (await poolSessions()).find((p) => !before.has(p.id) && p.pid), 10_000, 'the pool session');
    if (crash === 'SIGKILL') process.kill(pooled.pid!, 'SIGKILL');
    else s.ws.send(JSON.stringify({ id: 7, method: 'Browser.crash' }));
    const closed = await s.closed;
    assert.equal(closed.code, 1011, 'the client reads an error close');
    assert.match(closed.reason, /browser/);
    const ended = await eventually(
      async () => {
        const r = await row(s.sessionId);
        return r && r.state !== 'active' ? r : null;
      },
      5_000,
      'the row to end',
    );
    assert.equal(ended.state, 'errored');
    assert.match(
      ended.errorReason ?? '',
      /^the provider closed the WebSocket \(1011: the browser (exited unexpectedly|disconnected without closing the WebSocket)\)$/,
    );
  });
}

test('an address provider whose browser crashes (Browser.crash) ends the session errored', async () => {
  const browser = await launchChromium();
  try {
    const user = await newUser('crash-address');
    await addProvider(user.workspaceId, user.routerId, { slug: 'a', url: browser.wsUrl });
    const key = await routerKey(user.workspaceId, user.routerId);
    const s = await expectOpened(connectUrl(key));
    s.ws.send(JSON.stringify({ id: 7, method: 'Browser.crash' }));
    const closed = await s.closed;
    assert.equal(closed.code, 1011);
    const ended = await eventually(
      async () => {
        const r = await row(s.sessionId);
        return r && r.state !== 'active' ? r : null;
      },
      5_000,
      'the row to end',
    );
    assert.equal(ended.state, 'errored');
    assert.ok(ended.errorReason, 'with a reason');
  } finally {
    await browser.stop();
  }
});

test('a client that resets while its upgrade is refused (404) does not take the proxy down', async () => {
  for (let i = 0; i < 5; i++) rawUpgrade(`${PROXY}/nowhere`).resetAndDestroy();
  // One more refused upgrade, read to its end: the resets before it were handled by then.
  const answered = rawUpgrade(`${PROXY}/nowhere`);
  let reply = '';
  answered.on('data', (chunk) => (reply += chunk));
  await new Promise((resolve) => answered.on('close', resolve));
  assert.match(reply, /^HTTP\/1\.1 404/);
  // The proxy still answers (an unguarded socket error would have ended the process).
  assert.equal((await fetchFromOwnAddress(`${PROXY.replace(/^ws/, 'http')}/v1/status`)).status, 401);
});
