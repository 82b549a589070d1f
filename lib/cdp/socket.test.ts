// The product's CDP WebSocket client against a server of the test's own on loopback: commands and
// their answers, events by CDP session, waits that end on an event, a deadline or the connection's
// end, and every way it fails as one CdpError kind with the facts a caller words it from.
import assert from 'node:assert/strict';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { after, before, test } from 'node:test';
import { WebSocketServer, type WebSocket } from 'ws';
import { CdpError } from './errors';
import { CdpSocket } from './socket';

let server: WebSocketServer;
let base: string;
const peers: WebSocket[] = [];

before(async () => {
  server = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    verifyClient: ({ req }, done) => (req.url === '/refuse' ? done(false, 403, 'not this key') : done(true)),
  });
  await new Promise((resolve) => server.once('listening', resolve));
  base = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Answers Browser.getVersion, refuses Page.navigate, and says nothing to anything else.
  server.on('connection', (socket) => {
    peers.push(socket);
    socket.on('message', (data) => {
      const { id, method, sessionId } = JSON.parse(data.toString()) as { id: number; method: string; sessionId?: string };
      if (method === 'Browser.getVersion') socket.send(JSON.stringify({ id, result: { product: 'Chrome/156' }, ...(sessionId ? { sessionId } : {}) }));
      if (method === 'Page.navigate') socket.send(JSON.stringify({ id, error: { code: -32000, message: 'Cannot navigate to invalid URL' } }));
    });
  });
});
after(async () => {
  for (const peer of peers) peer.terminate();
  await new Promise((resolve) => server.close(resolve));
});

const open = (path = '/', commandTimeoutMs?: number) =>
  CdpSocket.open(`${base}${path}`, { handshakeTimeoutMs: 5_000, commandTimeoutMs, headers: { 'X-Test': '1' } });
const lastPeer = () => peers.at(-1)!;
const emit = (method: string, params: object, sessionId?: string) => lastPeer().send(JSON.stringify({ method, params, ...(sessionId ? { sessionId } : {}) }));

test("a command resolves with its answer; an error answer fails as answered, naming the command and the browser's words", async () => {
  const cdp = await open();
  assert.deepEqual(await cdp.send('Browser.getVersion'), { product: 'Chrome/156' });
  await assert.rejects(
    cdp.send('Page.navigate', { url: 'nowhere' }, 'S1'),
    (error: unknown) =>
      error instanceof CdpError &&
      error.kind === 'answered' &&
      error.details.method === 'Page.navigate' &&
      error.details.detail === 'Cannot navigate to invalid URL',
  );
  cdp.close();
});

test("the socket's command deadline applies when a command gives none; its own wins", async () => {
  const cdp = await open('/', 300);
  await assert.rejects(
    cdp.send('Target.getTargets'),
    (error: unknown) =>
      error instanceof CdpError && error.kind === 'timeout' && error.details.timeoutMs === 300 && error.details.method === 'Target.getTargets',
  );
  await assert.rejects(cdp.send('Target.getTargets', {}, undefined, 50), (error: unknown) => error instanceof CdpError && error.details.timeoutMs === 50);
  cdp.close();
});

test('events reach their handlers with their CDP session; a wait ends on the matching event, on its deadline, or with the connection', async () => {
  const cdp = await open();
  const seen: [string, string | undefined][] = [];
  const off = cdp.on('Target.targetCreated', (params, sessionId) => seen.push([params.targetInfo.targetId, sessionId]));
  const other = cdp.waitForEvent('Page.loadEventFired', { sessionId: 'S2', timeoutMs: 10_000 });
  const matching = cdp.waitForEvent('Target.targetDestroyed', { timeoutMs: 10_000, match: (params) => params.targetId === 'T2' });
  await cdp.send('Browser.getVersion'); // the server has our socket now
  emit('Target.targetCreated', { targetInfo: { targetId: 'T1' } }, 'S1');
  emit('Target.targetDestroyed', { targetId: 'T1' });
  emit('Target.targetDestroyed', { targetId: 'T2' });
  emit('Page.loadEventFired', { timestamp: 1 }, 'S1');
  emit('Page.loadEventFired', { timestamp: 2 }, 'S2');
  assert.deepEqual(await matching, { targetId: 'T2' });
  assert.deepEqual(await other, { timestamp: 2 }, "only session S2's event ends the wait");
  off();
  emit('Target.targetCreated', { targetInfo: { targetId: 'T3' } });
  await cdp.send('Browser.getVersion');
  assert.deepEqual(seen, [['T1', 'S1']], 'nothing after the unsubscribe');

  assert.equal(await cdp.waitForEvent('Page.frameNavigated', { timeoutMs: 50 }), null, 'no event in time');
  const pending = cdp.waitForEvent('Page.frameNavigated', { timeoutMs: 10_000 });
  lastPeer().close(4008, 'idle timeout');
  assert.equal(await pending, null, 'the connection ended before the event');
});

test('the other end closes: every waiting and later command fails as closed with its code and reason, and so does onClose', async () => {
  const cdp = await open();
  await cdp.send('Browser.getVersion');
  const waiting = cdp.send('Target.getTargets');
  lastPeer().close(4001, 'key revoked');
  const isClosed = (error: unknown) =>
    error instanceof CdpError && error.kind === 'closed' && error.details.code === 4001 && error.details.reason === 'key revoked' && !error.details.byUs;
  await assert.rejects(waiting, isClosed);
  await assert.rejects(cdp.send('Browser.getVersion'), isClosed);
  assert.ok(isClosed(cdp.closed));
  const told = await new Promise<CdpError>((resolve) => cdp.onClose(resolve));
  assert.ok(isClosed(told), 'a listener added after the end is told at once');
  const waitStarted = Date.now();
  assert.equal(await cdp.waitForEvent('Page.frameNavigated', { timeoutMs: 60_000 }), null);
  assert.ok(Date.now() - waitStarted < 1_000, 'a wait on an ended connection ends at once, not at its deadline');
});

test("closed by us: byUs, and the upgrade's response headers were kept", async () => {
  server.once('headers', (headers) => headers.push('X-Session-Id: s_123'));
  const cdp = await open();
  assert.equal(cdp.headers['x-session-id'], 's_123');
  const told = new Promise<CdpError>((resolve) => cdp.onClose(resolve));
  cdp.close();
  assert.equal((await told).details.byUs, true);
  await assert.rejects(cdp.send('Browser.getVersion'), (error: unknown) => error instanceof CdpError && error.kind === 'closed' && error.details.byUs === true);
});

test("open fails as refused (status and body), unreachable (the socket's error) or timeout (no upgrade in time)", async () => {
  await assert.rejects(
    open('/refuse'),
    (error: unknown) => error instanceof CdpError && error.kind === 'refused' && error.details.status === 403 && error.details.body === 'not this key',
  );
  await assert.rejects(
    CdpSocket.open('ws://127.0.0.1:1/', { handshakeTimeoutMs: 5_000 }),
    (error: unknown) => error instanceof CdpError && error.kind === 'unreachable' && error.details.cause?.code === 'ECONNREFUSED',
  );
  // Accepts TCP and never answers the upgrade.
  const held: Socket[] = [];
  const silent: Server = createServer((socket) => held.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  try {
    const started = Date.now();
    await assert.rejects(
      CdpSocket.open(`ws://127.0.0.1:${(silent.address() as AddressInfo).port}/`, { handshakeTimeoutMs: 200 }),
      (error: unknown) => error instanceof CdpError && error.kind === 'timeout' && error.details.timeoutMs === 200,
    );
    assert.ok(Date.now() - started < 5_000, 'the handshake deadline, not a default, ended it');
  } finally {
    for (const socket of held) socket.destroy();
    silent.close();
  }
});
