// An agent session's browser context (browser-context.ts) on a long-lived Chromium started with
// --remote-debugging-port, default tab and all: the session's tabs and popups live in a context of
// its own, which shares no cookies with the default one either way, hears of downloads, and is gone
// with every tab in it when the session closes or its connection drops. A session with a saved
// profile, and one on a browser that refuses contexts (a relay standing in for such a provider),
// keep the default context and still close exactly the tabs they opened.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import WebSocket, { WebSocketServer } from 'ws';
import { launchChromium, type Chromium } from '../../e2e/support/chromium';
import { eventually } from '../../e2e/support/connect';
import { startTestSite, type TestSite } from '../../e2e/support/test-site';
import { navigate } from './actions';
import type { Protocol } from '../../lib/cdp/protocol';
import { CdpSocket } from '../../lib/cdp/socket';
import { evaluate } from './reading';
import type { AgentSession } from './session';
import { SessionSet } from './session-set';
import type { AgentEndpoint } from './types';

let browser: Chromium;
let site: TestSite;
/** The test's own connection: another client of the same browser. */
let other: CdpSocket;
let defaultContext: string;
before(async () => {
  [browser, site] = await Promise.all([launchChromium(), startTestSite()]);
  other = await CdpSocket.open(browser.wsUrl, { handshakeTimeoutMs: 30_000, commandTimeoutMs: 30_000 });
  defaultContext = (await pages()).find((t) => t.url === 'about:blank')!.browserContextId!;
});
after(async () => {
  other?.close();
  await Promise.all([browser?.stop(), site?.close()]);
});

const routed: AgentEndpoint = { kind: 'connect', connect: async () => ({ url: browser.wsUrl }) };
const pages = async () => (await other.send('Target.getTargets')).targetInfos.filter((t) => t.type === 'page');
const contexts = async () => (await other.send('Target.getBrowserContexts')).browserContextIds;
const cookieNames = async (browserContextId?: string) => (await other.send('Storage.getCookies', { browserContextId })).cookies.map((c) => c.name).sort();

/** The session's tabs, as the browser lists them, once a popup opened from its tab is among them. */
async function withPopup(session: AgentSession): Promise<Protocol.Target.TargetInfo[]> {
  await evaluate(session, `window.open(${JSON.stringify(`${site.url}/agent/done?name=popup`)}) && true`);
  const tabs = await eventually(
    async () => {
      const listed = await session.listTabs();
      return listed.length === 2 ? listed : null;
    },
    5_000,
    "the popup, in the session's tabs",
  );
  const ids = tabs.map((t) => t.tabId);
  return (await pages()).filter((t) => ids.includes(t.targetId));
}

async function gone(ids: string[]): Promise<void> {
  await eventually(async () => !(await pages()).some((t) => ids.includes(t.targetId)), 5_000, "the session's tabs closed");
}

test('a context of its own: not the default one, no cookies shared either way, downloads heard of in it; closing disposes it with its tab and popup', async () => {
  await other.send('Storage.setCookies', { cookies: [{ name: 'owner', value: 'user', url: site.url }] });
  const set = new SessionSet(routed);
  const session = await set.open();
  await navigate(session, `${site.url}/cookies`);
  const [tab] = await pages().then((all) => all.filter((t) => t.url.endsWith('/cookies')));
  const own = tab!.browserContextId!;
  assert.notEqual(own, defaultContext, "the agent's tab is not in the default context");
  assert.ok((await contexts()).includes(own));

  assert.equal(JSON.parse(await evaluate(session, 'document.cookie')), 'server=yes; visited=yes', "the default context's cookie is not seen");
  assert.deepEqual(await cookieNames(), ['owner'], "the agent's cookies stay out of the default context");
  assert.deepEqual(await cookieNames(own), ['server', 'visited']);

  await evaluate(
    session,
    `(() => { const a = document.createElement('a'); a.href = URL.createObjectURL(new Blob(['x'])); a.download = 'x.txt'; document.body.append(a); a.click(); return true; })()`,
  );
  // Heard of in its context (headless Chromium cancels a download there whatever the behaviour, so
  // this cannot show the refusal itself).
  await eventually(
    () => session.observations.report().some((o) => o.kind === 'download' && o.text.startsWith('"x.txt"')),
    5_000,
    "the download, heard of in the agent's context",
  );

  const tabs = await withPopup(session);
  assert.deepEqual(
    tabs.map((t) => t.browserContextId),
    [own, own],
    'the popup is in the same context',
  );
  await set.closeAll('test over');
  await gone(tabs.map((t) => t.targetId));
  assert.ok(!(await contexts()).includes(own), 'the context is disposed');
  assert.ok(
    (await pages()).some((t) => t.browserContextId === defaultContext),
    'the default tab stays',
  );
  assert.deepEqual(await cookieNames(), ['owner']);
});

test('a session with a saved profile stays in the default context, where the profile plugin restores its state; it closes its tabs', async () => {
  const set = new SessionSet(routed);
  const session = await set.open({ profile: 'shop' });
  await navigate(session, `${site.url}/agent/form`);
  const tabs = await withPopup(session);
  assert.deepEqual(
    tabs.map((t) => t.browserContextId),
    [defaultContext, defaultContext],
  );
  await set.closeAll('test over');
  await gone(tabs.map((t) => t.targetId));
  assert.ok(
    (await pages()).some((t) => t.browserContextId === defaultContext),
    'the default tab stays',
  );
});

test('a browser that refuses contexts: the session works in tabs of its own in the default context and closes them, popup included', async () => {
  const relay = await startRelay(browser.wsUrl, { refuseContexts: true });
  try {
    const set = new SessionSet({ kind: 'connect', connect: async () => ({ url: relay.url }) });
    const session = await set.open();
    await navigate(session, `${site.url}/agent/form`);
    const tabs = await withPopup(session);
    assert.deepEqual(
      tabs.map((t) => t.browserContextId),
      [defaultContext, defaultContext],
    );
    await set.closeAll('test over');
    await gone(tabs.map((t) => t.targetId));
  } finally {
    await relay.close();
  }
});

test('a connection that drops without a close still takes the context, with its tabs, away', async () => {
  const relay = await startRelay(browser.wsUrl, { refuseContexts: false });
  try {
    const set = new SessionSet({ kind: 'connect', connect: async () => ({ url: relay.url }) });
    const session = await set.open();
    await navigate(session, `${site.url}/agent/form`);
    const tabs = await withPopup(session);
    const own = tabs[0]!.browserContextId!;
    assert.notEqual(own, defaultContext);
    relay.drop();
    await eventually(() => session.closed, 5_000, 'the session to hear of the drop');
    await gone(tabs.map((t) => t.targetId));
    assert.ok(!(await contexts()).includes(own), 'the context is disposed');
  } finally {
    await relay.close();
  }
});

/**
 * A relay to the browser, standing in for a provider: one that allows no context of a client's own
 * (Target.createBrowserContext refused), and whose connection can drop (drop(): every connection
 * to the browser cut, with no CDP command sent first).
 */
async function startRelay(upstreamUrl: string, options: { refuseContexts: boolean }): Promise<{ url: string; drop: () => void; close: () => Promise<void> }> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  const upstreams = new Set<WebSocket>();
  await new Promise((resolve) => server.once('listening', resolve));
  server.on('connection', (client) => {
    const upstream = new WebSocket(upstreamUrl, { perMessageDeflate: false });
    upstreams.add(upstream);
    const opened = new Promise((resolve) => upstream.once('open', resolve));
    upstream.on('message', (data) => client.send(data.toString()));
    upstream.on('close', () => client.terminate());
    client.on('close', () => upstream.close());
    client.on('message', async (data) => {
      const message = JSON.parse(data.toString()) as { id: number; method: string };
      if (options.refuseContexts && message.method === 'Target.createBrowserContext')
        return client.send(JSON.stringify({ id: message.id, error: { code: -32000, message: 'Not allowed' } }));
      await opened;
      upstream.send(data.toString());
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    drop: () => upstreams.forEach((upstream) => upstream.terminate()),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
