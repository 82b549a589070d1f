// The pipeline lane against a real Chromium: plugin-free relay, and a test plugin that injects
// commands (their replies never reach the client) and watches every message.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { launchChromium, type Chromium } from '../../e2e/support/chromium';
import { INJECTED_ID_BASE, PipelineLane, type CdpMessage, type PipelinePlugin } from './pipeline-lane';
import type { RelayOutcome } from './types';

let browser: Chromium;
before(async () => { browser = await launchChromium(); });
after(async () => { await browser?.stop(); });

/** A tiny front: each client WebSocket is relayed to the browser through a PipelineLane. */
async function front(plugins: () => PipelinePlugin[]) {
  const ends: Promise<RelayOutcome>[] = [];
  const server = http.createServer();
  const wss = new WebSocketServer({ server });
  wss.on('connection', (client) => {
    client.pause();
    const upstream = new WebSocket(browser.wsUrl, { perMessageDeflate: false });
    let done!: (o: RelayOutcome) => void;
    ends.push(new Promise((r) => (done = r)));
    upstream.once('open', () => {
      new PipelineLane(client, upstream, 'test-session', plugins(), done);
      client.resume();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, ends, close: () => new Promise((r) => { wss.close(); server.close(r); }) };
}

function client(url: string) {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  const seen: CdpMessage[] = [];
  ws.on('message', (data) => seen.push(JSON.parse(data.toString())));
  const call = (id: number, method: string, params: object = {}) =>
    new Promise<CdpMessage>((resolve) => {
      const check = () => { const m = seen.find((x) => x.id === id); if (m) { ws.off('message', check); resolve(m); } };
      ws.on('message', check);
      ws.send(JSON.stringify({ id, method, params }));
    });
  return { ws, seen, call, opened: new Promise((r) => ws.once('open', r)) };
}

test('plugin-free: messages relay both ways and are counted', async () => {
  const f = await front(() => []);
  const c = client(f.url);
  await c.opened;
  const reply = await c.call(1, 'Browser.getVersion');
  assert.match((reply.result as { product: string }).product, /Chrome/);
  const target = await c.call(2, 'Target.createTarget', { url: 'about:blank' });
  await c.call(3, 'Target.closeTarget', { targetId: (target.result as { targetId: string }).targetId });
  c.ws.close();
  const outcome = await f.ends[0]!;
  assert.equal(outcome.state, 'closed');
  await f.close();
});

test('a plugin injects commands whose replies never reach the client, and sees all traffic', async () => {
  const log: string[] = [];
  let injectedResult: unknown;
  const plugin: PipelinePlugin = {
    name: 'test',
    async onStart(ctx) {
      injectedResult = await ctx.send('Browser.getVersion');
      log.push('injected-reply');
    },
    onClientMessage(m) { log.push(`client:${m.method}`); },
    onProviderMessage(m) { if (m.id !== undefined) log.push(`reply:${m.id}`); },
    onEnd(outcome) { log.push(`end:${outcome.state}`); },
  };
  const f = await front(() => [plugin]);
  const c = client(f.url);
  await c.opened;
  await c.call(7, 'Target.getTargets');
  await new Promise<void>((resolve) => { const t = setInterval(() => { if (log.includes('injected-reply')) { clearInterval(t); resolve(); } }, 5); });
  assert.match((injectedResult as { product: string }).product, /Chrome/);
  assert.ok(c.seen.every((m) => m.id === undefined || m.id < INJECTED_ID_BASE), 'no injected reply reached the client');
  assert.ok(log.includes('client:Target.getTargets') && log.includes('reply:7'));
  c.ws.close();
  await f.ends[0];
  assert.equal(log.at(-1), 'end:closed');
  await f.close();
});

test('a plugin can drop a client command', async () => {
  const f = await front(() => [{ name: 'block', onClientMessage: (m) => (m.method === 'Browser.close' ? 'drop' : undefined) }]);
  const c = client(f.url);
  await c.opened;
  c.ws.send(JSON.stringify({ id: 1, method: 'Browser.close' }));
  const reply = await c.call(2, 'Browser.getVersion');
  assert.ok(reply.result, 'the browser is still there');
  assert.equal(c.seen.some((m) => m.id === 1), false);
  c.ws.close();
  await f.ends[0];
  await f.close();
});
