// The pipeline lane against a real Chromium: plugin-free relay, a test plugin that injects
// commands (their replies never reach the client) and watches every message, fragmented and
// large messages.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { dialUpstream } from '../websocket/dial';
import { acceptFor } from '../websocket/handshake';
import { launchChromium, type Chromium } from '../../e2e/support/chromium';
import { INJECTED_ID_BASE, mayBeInjectedReply, PipelineLane, type CdpMessage, type PipelinePlugin, type PluginContext } from './pipeline-lane';
import type { RelayOutcome } from './types';

let browser: Chromium;
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser?.stop();
});

/** A tiny front: each client upgrade is relayed to the browser through a PipelineLane, as the proxy does. */
async function front(plugins: () => PipelinePlugin[]) {
  const ends: Promise<RelayOutcome>[] = [];
  const lanes: PipelineLane[] = [];
  const server = http.createServer();
  server.on('upgrade', (req, socket, head) => {
    let done!: (o: RelayOutcome) => void;
    ends.push(new Promise((r) => (done = r)));
    void dialUpstream({ url: browser.wsUrl, timeoutMs: 5_000, policy: { privateNetwork: 'allow', internalPorts: new Set() } }).then((up) => {
      socket.write(
        [
          'HTTP/1.1 101 Switching Protocols',
          'Upgrade: websocket',
          'Connection: Upgrade',
          `Sec-WebSocket-Accept: ${acceptFor(String(req.headers['sec-websocket-key']))}`,
          '',
          '',
        ].join('\r\n'),
      );
      lanes.push(new PipelineLane(socket, head, up.socket, up.head, 'test-session', plugins(), done));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    ends,
    lanes,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(r);
      }),
  };
}

/** Polls until `read` returns something truthy (2 s deadline). */
async function eventually<T>(read: () => T): Promise<T> {
  const deadline = Date.now() + 2_000;
  for (;;) {
    const value = read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met within 2 s');
    await new Promise((r) => setTimeout(r, 5));
  }
}

function client(url: string) {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  const seen: CdpMessage[] = [];
  ws.on('message', (data) => seen.push(JSON.parse(data.toString())));
  const call = (id: number, method: string, params: object = {}) =>
    new Promise<CdpMessage>((resolve) => {
      const check = () => {
        const m = seen.find((x) => x.id === id);
        if (m) {
          ws.off('message', check);
          resolve(m);
        }
      };
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
  // Every message is counted once: the three commands sent and everything the client received.
  const stats = f.lanes[0]!.stats;
  assert.equal(c.seen.length, 3, 'three replies, no events (none were subscribed to)');
  assert.equal(stats.messages, 3 + c.seen.length);
  assert.ok(stats.bytesIn > 3 * 6 + 3 * 40, `bytesIn ${stats.bytesIn}`); // three masked commands
  assert.ok(stats.bytesOut > JSON.stringify(c.seen).length, `bytesOut ${stats.bytesOut}`);
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
    onClientMessage(m) {
      log.push(`client:${m.method}`);
    },
    onProviderMessage(m) {
      if (m.id !== undefined) log.push(`reply:${m.id}`);
    },
    onEnd(outcome) {
      log.push(`end:${outcome.state}`);
    },
  };
  const f = await front(() => [plugin]);
  const c = client(f.url);
  await c.opened;
  await c.call(7, 'Target.getTargets');
  await new Promise<void>((resolve) => {
    const t = setInterval(() => {
      if (log.includes('injected-reply')) {
        clearInterval(t);
        resolve();
      }
    }, 5);
  });
  assert.match((injectedResult as { product: string }).product, /Chrome/);
  assert.ok(
    c.seen.every((m) => m.id === undefined || m.id < INJECTED_ID_BASE),
    'no injected reply reached the client',
  );
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
  assert.equal(
    c.seen.some((m) => m.id === 1),
    false,
  );
  c.ws.close();
  await f.ends[0];
  await f.close();
});

test('a fragmented client message reaches a reading plugin whole and the provider intact; injections wait for its end', async () => {
  // Without a reader the fragments stream through, so an injected command must wait for the last one.
  for (const reading of [true, false]) {
    const read: CdpMessage[] = [];
    let ctx!: PluginContext;
    const plugin: PipelinePlugin = {
      name: 'fragments',
      onStart: (c) => void (ctx = c),
      ...(reading && { onClientMessage: (m: CdpMessage) => void read.push(m) }),
    };
    const f = await front(() => [plugin]);
    const c = client(f.url);
    await c.opened;
    const url = `about:blank#${'y'.repeat(40)}`;
    const text = JSON.stringify({ id: 5, method: 'Target.createTarget', params: { url } });
    const replied = new Promise<CdpMessage>((resolve) =>
      c.ws.on('message', (d) => {
        const m = JSON.parse(d.toString());
        if (m.id === 5) resolve(m);
      }),
    );
    c.ws.send(text.slice(0, 10), { fin: false });
    // The first fragment has reached the lane (the provider answers nothing to it) before the injection.
    await eventually(() => f.lanes[0]?.stats.bytesIn ?? 0);
    const injected = ctx.send('Browser.getVersion');
    c.ws.send(text.slice(10, 30), { fin: false });
    c.ws.send(text.slice(30), { fin: true });
    const reply = await replied;
    assert.equal(reply.error, undefined);
    assert.match((reply.result as { targetId: string }).targetId, /^[0-9A-F]{32}$/);
    assert.match(((await injected) as { product: string }).product, /Chrome/);
    if (reading) assert.deepEqual(read, [{ id: 5, method: 'Target.createTarget', params: { url } }]);
    c.ws.close();
    await f.ends[0];
    await f.close();
  }
});

test('a multi-megabyte reply passes whole, with and without a plugin reading it', async () => {
  for (const plugins of [() => [], () => [{ name: 'reader', onProviderMessage: () => undefined }]] as (() => PipelinePlugin[])[]) {
    const f = await front(plugins);
    const c = client(f.url);
    await c.opened;
    const target = await c.call(1, 'Target.createTarget', { url: 'about:blank' });
    const attached = await c.call(2, 'Target.attachToTarget', { targetId: (target.result as { targetId: string }).targetId, flatten: true });
    const sessionId = (attached.result as { sessionId: string }).sessionId;
    const reply = await new Promise<CdpMessage>((resolve) => {
      c.ws.on('message', (d) => {
        const m = JSON.parse(d.toString());
        if (m.id === 3) resolve(m);
      });
      c.ws.send(JSON.stringify({ id: 3, sessionId, method: 'Runtime.evaluate', params: { expression: "'x'.repeat(3 * 1024 * 1024)", returnByValue: true } }));
    });
    assert.equal((reply.result as { result: { value: string } }).result.value.length, 3 * 1024 * 1024);
    c.ws.close();
    await f.ends[0];
    await f.close();
  }
});

test('beforeRelease: after the client leaves the plugin still talks to the browser, then the session ends', async () => {
  const order: string[] = [];
  let version: unknown;
  const plugin: PipelinePlugin = {
    name: 'finisher',
    onClientGone() {
      order.push('client gone');
    },
    async beforeRelease(ctx) {
      order.push('release');
      version = await ctx.send('Browser.getVersion');
    },
    onEnd() {
      order.push('end');
    },
  };
  const f = await front(() => [plugin]);
  const c = client(f.url);
  await c.opened;
  await c.call(1, 'Browser.getVersion');
  c.ws.close(1000);
  const outcome = await f.ends[0]!;
  assert.deepEqual(outcome, { state: 'closed', reason: null });
  assert.deepEqual(order, ['client gone', 'release', 'end']);
  assert.match(String((version as { product?: string })?.product), /Chrome/);
  await f.close();
});

test('a held client command can be forwarded later; its reply reaches the client', async () => {
  let held: CdpMessage | null = null;
  const plugin: PipelinePlugin = {
    name: 'holder',
    onClientMessage(message, ctx) {
      if (message.method !== 'Browser.getVersion' || held) return;
      held = message;
      void ctx.send('Target.getTargets').then(() => ctx.forward(message));
      return 'drop';
    },
  };
  const f = await front(() => [plugin]);
  const c = client(f.url);
  await c.opened;
  const reply = await c.call(7, 'Browser.getVersion');
  assert.equal(reply.id, 7);
  assert.ok(held);
  c.ws.close();
  await f.close();
});

test("mayBeInjectedReply: events and the client's replies are told apart by their first bytes; other layouts are read", () => {
  const of = (text: string) => mayBeInjectedReply(Buffer.from(text));
  assert.equal(of(`{"id":${INJECTED_ID_BASE + 7},"result":{}}`), true);
  assert.equal(of(`{"id":${INJECTED_ID_BASE},"result":{},"sessionId":"AB"}`), true);
  assert.equal(of('{"id":12,"result":{"data":"..."}}'), false);
  assert.equal(of('{"method":"Page.screencastFrame","params":{}}'), false);
  assert.equal(of('{"result":{},"id":2000000001}'), true, 'a provider that writes keys in another order is read');
  assert.equal(of('{ "id": 2000000001 }'), true);
});
