// The edges of a session, for both lanes, over real sockets: a client that goes away (close
// frame, FIN, reset) ends the session within a second even when the provider is a Chromium
// stopped with SIGSTOP; both lanes read a provider's close the same way; a slow reader holds the
// provider back instead of the relay buffering without bound.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import WebSocket from 'ws';
import { launchChromium, type Chromium } from '../../e2e/support/chromium';
import { dialUpstream } from '../websocket/dial';
import { closeFrame, FrameCounter, maskedTextFrame } from '../websocket/frames';
import { switchingProtocols } from '../websocket/handshake';
import { FastLane } from './fast-lane';
import { PipelineLane } from './pipeline-lane';
import type { Relay, RelayOutcome } from './types';

const LOOPBACK = { privateNetwork: 'allow' as const, internalPorts: new Set<number>() };
const lanes = ['fast', 'pipeline'] as const;
type LaneName = (typeof lanes)[number];

let browser: Chromium;
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  try {
    process.kill(browser.pid, 'SIGCONT');
  } catch {
    /* gone */
  }
  await browser?.stop();
});

interface Ended {
  outcome: RelayOutcome;
  at: number;
}

/** A front like the proxy's: each upgrade is dialled to `upstreamUrl()` and relayed by the lane. */
async function front(lane: LaneName, upstreamUrl: () => string) {
  const ended: Promise<Ended>[] = [];
  const relays: Relay[] = [];
  const server = http.createServer();
  server.on('upgrade', (req, socket, head) => {
    let done!: (e: Ended) => void;
    ended.push(new Promise((r) => (done = r)));
    const onEnd = (outcome: RelayOutcome) => done({ outcome, at: performance.now() });
    void dialUpstream({ url: upstreamUrl(), timeoutMs: 5_000, policy: LOOPBACK }).then((up) => {
      socket.write(switchingProtocols(String(req.headers['sec-websocket-key']), []));
      relays.push(
        lane === 'fast' ? new FastLane(socket, head, up.socket, up.head, onEnd) : new PipelineLane(socket, head, up.socket, up.head, 'edge', [], onEnd),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `ws://127.0.0.1:${port}`,
    port,
    ended,
    relays,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(r);
      }),
  };
}

/** A raw client socket after a completed handshake (for FIN and reset, which ws cannot send). */
async function rawClient(port: number): Promise<{ socket: net.Socket; received: Buffer[] }> {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => {});
  await new Promise((r) => socket.once('connect', r));
  socket.write(
    `GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
  );
  const received: Buffer[] = [];
  await new Promise<void>((resolve) => {
    let seen = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      seen = Buffer.concat([seen, chunk]);
      const end = seen.indexOf('\r\n\r\n');
      if (end === -1) return;
      socket.off('data', onData);
      if (seen.length > end + 4) received.push(seen.subarray(end + 4));
      socket.on('data', (c: Buffer) => received.push(c));
      resolve();
    };
    socket.on('data', onData);
  });
  return { socket, received };
}

async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer!: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Opens a session to the real Chromium, checks it answers, then stops the browser with SIGSTOP. */
async function stoppedBrowserSession(f: Awaited<ReturnType<typeof front>>) {
  const raw = await rawClient(f.port);
  raw.socket.write(maskedTextFrame(JSON.stringify({ id: 1, method: 'Browser.getVersion' })));
  const deadline = Date.now() + 5_000;
  while (!Buffer.concat(raw.received).includes('"id":1')) {
    if (Date.now() > deadline) throw new Error('no answer from the browser');
    await new Promise((r) => setTimeout(r, 5));
  }
  process.kill(browser.pid, 'SIGSTOP');
  return raw;
}

for (const lane of lanes) {
  for (const goes of ['close frame', 'FIN', 'reset'] as const) {
    test(`${lane} lane: a client that goes away (${goes}) ends the session within a second while the browser is stopped (SIGSTOP)`, async () => {
      const f = await front(lane, () => browser.wsUrl);
      try {
        const raw = await stoppedBrowserSession(f);
        const t0 = performance.now();
        if (goes === 'close frame')
          raw.socket.write(Buffer.concat([Buffer.from([0x88, 0x82, 0, 0, 0, 0]), Buffer.from([0x03, 0xe8])])); // masked close 1000
        else if (goes === 'FIN') raw.socket.end();
        else raw.socket.resetAndDestroy();
        const { outcome, at } = await within(f.ended[0]!, 1_000, 'session end');
        assert.deepEqual(outcome, { state: 'closed', reason: null });
        assert.ok(at - t0 < 1_000, `ended after ${Math.round(at - t0)} ms`);
        if (goes === 'close frame') {
          // The relay answered the close frame the stopped browser could not.
          await within(new Promise((r) => raw.socket.once('end', r)), 2_000, 'client FIN');
          const counter = new FrameCounter();
          counter.push(Buffer.concat(raw.received));
          assert.deepEqual(counter.close, { code: 1000, reason: '' });
        }
        raw.socket.destroy();
      } finally {
        process.kill(browser.pid, 'SIGCONT');
        await f.close();
      }
    });
  }

  test(`${lane} lane: a ws client's close() completes at once against a stopped browser`, async () => {
    const f = await front(lane, () => browser.wsUrl);
    try {
      const ws = new WebSocket(f.url, { perMessageDeflate: false });
      await new Promise((r) => ws.once('open', r));
      await new Promise<void>((resolve) => {
        ws.once('message', () => resolve());
        ws.send(JSON.stringify({ id: 1, method: 'Browser.getVersion' }));
      });
      process.kill(browser.pid, 'SIGSTOP');
      const t0 = performance.now();
      ws.close(1000, 'done');
      const [code] = await within(new Promise<[number]>((r) => ws.once('close', (c) => r([c]))), 1_500, 'ws close event');
      assert.equal(code, 1000);
      const { outcome, at } = await f.ended[0]!;
      assert.equal(outcome.state, 'closed');
      assert.ok(at - t0 < 1_000);
    } finally {
      process.kill(browser.pid, 'SIGCONT');
      await f.close();
    }
  });
}

/** A provider that completes the handshake and then does what the test says. */
async function scriptedProvider(script: (socket: net.Socket) => void) {
  const server = net.createServer((socket) => {
    socket.on('error', () => {});
    socket.once('data', (req) => {
      const key = /sec-websocket-key: (.+)\r\n/i.exec(req.toString())![1]!.trim();
      socket.write(switchingProtocols(key, []));
      script(socket);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `ws://127.0.0.1:${(server.address() as net.AddressInfo).port}/devtools/browser/x`, close: () => new Promise((r) => server.close(r)) };
}

test('both lanes read the same provider close the same way, and tell the client why', async () => {
  const cases: { name: string; script: (s: net.Socket) => void; state: 'closed' | 'errored'; reason: RegExp | null; clientCode: number }[] = [
    { name: 'close 1000', script: (s) => s.end(closeFrame(1000, 'bye')), state: 'closed', reason: null, clientCode: 1000 },
    { name: 'close without a code', script: (s) => s.end(Buffer.from([0x88, 0x00])), state: 'closed', reason: null, clientCode: 1005 },
    {
      name: 'close 1011 (the pool: browser crashed)',
      script: (s) => s.end(closeFrame(1011, 'the browser exited unexpectedly')),
      state: 'errored',
      reason: /^the provider closed the WebSocket \(1011: the browser exited unexpectedly\)$/,
      clientCode: 1011,
    },
    // The client's answer reaches the relay before the provider's FIN: still the provider's end.
    {
      name: 'close 1011, FIN after the client answered',
      script: (s) => {
        s.write(closeFrame(1011, 'the browser exited unexpectedly'));
        s.once('data', () => setTimeout(() => s.end(), 50));
      },
      state: 'errored',
      reason: /^the provider closed the WebSocket \(1011: the browser exited unexpectedly\)$/,
      clientCode: 1011,
    },
    {
      name: 'close 1001',
      script: (s) => s.end(closeFrame(1001, 'pool shutting down')),
      state: 'errored',
      reason: /\(1001: pool shutting down\)/,
      clientCode: 1001,
    },
    {
      name: 'TCP dropped, no close frame',
      script: (s) => s.destroy(),
      state: 'errored',
      reason: /^the provider disconnected without closing the WebSocket$/,
      clientCode: 1011,
    },
    {
      name: 'reset',
      script: (s) => s.resetAndDestroy(),
      state: 'errored',
      reason: /^the provider disconnected without closing the WebSocket$/,
      clientCode: 1011,
    },
  ];
  for (const c of cases) {
    const seen: Record<string, { outcome: RelayOutcome; clientCode: number }> = {};
    for (const lane of lanes) {
      const provider = await scriptedProvider((s) => setImmediate(() => c.script(s)));
      const f = await front(lane, () => provider.url);
      const ws = new WebSocket(f.url, { perMessageDeflate: false });
      ws.on('error', () => {});
      const clientCode = await new Promise<number>((r) => ws.once('close', (code) => r(code)));
      const { outcome } = await f.ended[0]!;
      seen[lane] = { outcome, clientCode };
      await f.close();
      await provider.close();
    }
    assert.deepEqual(seen.fast, seen.pipeline, `${c.name}: lanes differ`);
    assert.equal(seen.fast!.outcome.state, c.state, c.name);
    if (c.reason) assert.match(seen.fast!.outcome.reason ?? '', c.reason, c.name);
    else assert.equal(seen.fast!.outcome.reason, null, c.name);
    assert.equal(seen.fast!.clientCode, c.clientCode, `${c.name}: the close code the client read`);
  }
});

for (const lane of lanes) {
  test(`${lane} lane: a slow reader holds the provider back; nothing is dropped or reordered`, async () => {
    const FRAMES = 400;
    const SIZE = 64 * 1024;
    let providerSocket!: net.Socket;
    const provider = await scriptedProvider((s) => {
      providerSocket = s;
      // Writes until the socket says stop, then waits for 'drain': a well-behaved provider.
      let i = 0;
      const pump = () => {
        while (i < FRAMES) {
          const payload = Buffer.alloc(SIZE, i % 251);
          payload.writeUInt32BE(i, 0);
          const header = Buffer.from([0x82, 127, 0, 0, 0, 0, 0, 0, 0, 0]);
          header.writeBigUInt64BE(BigInt(SIZE), 2);
          i++;
          if (!s.write(Buffer.concat([header, payload]))) return void s.once('drain', pump);
        }
      };
      pump();
    });
    const f = await front(lane, () => provider.url);
    try {
      const raw = await rawClient(f.port);
      raw.socket.pause(); // reads nothing for a while
      // Wait until the provider is held back: its writes stop draining.
      const deadline = Date.now() + 5_000;
      while (!providerSocket?.writableNeedDrain) {
        if (Date.now() > deadline) throw new Error('the provider was never held back');
        await new Promise((r) => setTimeout(r, 10));
      }
      // The relay holds at most a few frames for the client (its socket buffer), not the stream.
      const buffered = (f.relays[0] as unknown as { client: net.Socket }).client.writableLength;
      assert.ok(buffered <= 4 * SIZE, `relay buffered ${buffered} bytes for the client`);
      raw.socket.resume();
      const total = FRAMES * (SIZE + 10);
      const end = Date.now() + 20_000;
      while (Buffer.concat(raw.received).length < total) {
        if (Date.now() > end) throw new Error(`received ${Buffer.concat(raw.received).length} of ${total}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      const all = Buffer.concat(raw.received);
      for (let i = 0; i < FRAMES; i++) assert.equal(all.readUInt32BE(i * (SIZE + 10) + 10), i, `frame ${i} in order`);
      assert.equal(f.relays[0]!.stats.messages, FRAMES, 'every message counted once');
      assert.equal(f.relays[0]!.stats.bytesOut, total);
      raw.socket.destroy();
      const { outcome } = await f.ended[0]!;
      assert.deepEqual(outcome, { state: 'closed', reason: null });
    } finally {
      await f.close();
      await provider.close();
    }
  });
}
