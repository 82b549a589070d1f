// When the proxy ends a session itself (here: the router's idle timeout), the client is told why,
// through both lanes of the real proxy to a real Chromium: a raw CDP client reads
// Inspector.detached with the reason (in each CDP session it holds too, on an address provider and
// on the stack's pool) and then the close frame with 4008 and the same reason; a Playwright client
// with a call in flight reads the reason in that call's error. The other causes
// (lifetime, revocations, control-plane close, shutdown) are proven through the lanes at the unit
// level: proxy/sessions/close-reasons.test.ts.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import WebSocket from 'ws';
import { newUser } from '../support/api';
import { launchChromium, type Chromium } from '../support/chromium';
import { connectUrl, expectOpened, POOL_WS, PROXY, routerKey } from '../support/connect';
import { updateRouterRow } from '../support/providers';
import { seedProvider } from '../support/seed';
import { freePort } from '../../scripts/lib/ports';
import { startProxy, type ProxyServer } from '../../proxy/server';

let browser: Chromium;
let pipeline: ProxyServer;
let pipelineBase: string;
before(async () => {
  browser = await launchChromium();
  const port = await freePort();
  pipeline = await startProxy({
    port,
    host: '127.0.0.1',
    proxyInstanceId: `close-reasons-${port}`,
    shutdownDrainMs: 100,
    lane: 'pipeline',
    webhooks: false,
    jobs: false,
  });
  pipelineBase = `ws://127.0.0.1:${port}`;
});
after(async () => {
  await pipeline?.stop();
  await browser?.stop();
});

const lanes = [
  { name: 'fast', base: () => PROXY },
  { name: 'pipeline', base: () => pipelineBase },
];

/**
 * A router whose sessions go idle after `idleMs`, with the test's Chromium (started with
 * --remote-debugging-port, as an address provider) or `providerUrl` as its provider: its connect URL on `base`.
 */
async function idleRouter(tag: string, idleMs: number, base: string, providerUrl = browser.wsUrl): Promise<string> {
  const user = await newUser(tag);
  // Below the API's 10 s minimum on purpose, written straight to the row (as sessions.test.ts does).
  await updateRouterRow(user.routerId, { sessionIdleTimeoutMs: idleMs });
  await seedProvider(user.workspaceId, user.routerId, { slug: 'a', url: providerUrl });
  return connectUrl(await routerKey(user.workspaceId, user.routerId)).replace(PROXY, base);
}

const idleText = (seconds: string) => `idle timeout: no traffic for ${seconds} s; set the router's sessionIdleTimeoutMs (Settings > Routing > Idle timeout)`;

for (const lane of lanes) {
  test(`${lane.name} lane: an idle session tells a raw CDP client why: Inspector.detached with the reason, then close 4008 with the same reason`, async () => {
    const s = await expectOpened(await idleRouter(`why-raw-${lane.name}`, 500, lane.base()));
    const seen: unknown[] = [];
    s.ws.on('message', (data: WebSocket.RawData) => seen.push(JSON.parse(data.toString())));
    const { code, reason } = await s.closed;
    const text = idleText('0.5');
    assert.deepEqual(seen, [{ method: 'Inspector.detached', params: { reason: text } }], 'the event came before the close frame, and nothing else');
    assert.deepEqual({ code, reason }, { code: 4008, reason: text });
  });

  // A pool browser opens a tab in a new renderer, which a loaded machine can take seconds to do:
  // the idle timeout must not end the session while the client still sets it up.
  for (const provider of [
    { name: 'an address provider', url: () => browser.wsUrl, idleMs: 800 },
    { name: 'the pool', url: () => POOL_WS, idleMs: 4_000 },
  ]) {
    test(`${lane.name} lane, ${provider.name}: each CDP session the raw client holds gets Inspector.detached in that session, then the browser-level one and the close frame`, async () => {
      const s = await expectOpened(await idleRouter(`why-sessions-${lane.name}`, provider.idleMs, lane.base(), provider.url()));
      const seen: { id?: number; method?: string; sessionId?: string; result?: { targetId?: string; sessionId?: string } }[] = [];
      const answers = new Map<number, (result: Record<string, string>) => void>();
      s.ws.on('message', (data: WebSocket.RawData) => {
        const message = JSON.parse(data.toString()) as (typeof seen)[number];
        seen.push(message);
        if (message.id !== undefined) answers.get(message.id)?.(message.result as Record<string, string>);
      });
      let nextId = 0;
      const closedEarly = s.closed.then(({ reason }) => Promise.reject(new Error(`the session closed while the client set it up: ${reason}`)));
      closedEarly.catch(() => {});
      const send = (method: string, params: object) =>
        Promise.race([
          closedEarly,
          new Promise<Record<string, string>>((resolve) => {
            answers.set(++nextId, resolve);
            s.ws.send(JSON.stringify({ id: nextId, method, params }));
          }),
        ]);
      const opened: string[] = [];
      for (let i = 0; i < 2; i++) {
        const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
        opened.push((await send('Target.attachToTarget', { targetId, flatten: true })).sessionId!);
      }
      const { code, reason } = await s.closed;
      const text = idleText(String(provider.idleMs / 1000));
      const goodbye = seen.filter((m) => m.method === 'Inspector.detached');
      assert.deepEqual(goodbye, [
        ...opened.map((sessionId) => ({ method: 'Inspector.detached', params: { reason: text }, sessionId })),
        { method: 'Inspector.detached', params: { reason: text } },
      ]);
      assert.deepEqual(seen.slice(-goodbye.length), goodbye, 'the events came last, before the close frame');
      assert.deepEqual({ code, reason }, { code: 4008, reason: text });
    });
  }

  test(
    `${lane.name} lane: a Playwright call in flight when the idle timeout hits fails with the reason, naming the setting`,
    { timeout: 60_000 },
    async (t) => {
      const client = await chromium.connectOverCDP(await idleRouter(`why-pw-${lane.name}`, 3_000, lane.base()));
      const disconnected = new Promise<void>((r) => client.once('disconnected', () => r()));
      // Setting up can be silent for longer than the idle time on a loaded machine (Chromium making
      // the page), and a session ended during setup is not what this test is about (a full run here
      // hung until the test's timeout, most likely there): traffic of the test's own keeps the
      // session busy until the call under test is sent.
      const cdp = await client.newBrowserCDPSession();
      const busy = setInterval(() => void cdp.send('Browser.getVersion').catch(() => {}), 200);
      const page = await client
        .newContext()
        .then((context) => context.newPage())
        .finally(() => clearInterval(busy));
      // Never settles: no CDP traffic either way until the proxy ends the session.
      const error = await page
        .evaluate(() => new Promise(() => {}))
        .then(
          () => null,
          (e: Error) => e,
        );
      await disconnected;
      assert.ok(error, 'the call failed');
      t.diagnostic(`what the Playwright user reads: ${JSON.stringify(error.message)}`);
      // playwright-core appends the close frame's reason as "Browser logs" to every call in flight.
      assert.equal(error.message, `page.evaluate: Target page, context or browser has been closed\nBrowser logs:\n\n${idleText('3')}\n`);
    },
  );
}
