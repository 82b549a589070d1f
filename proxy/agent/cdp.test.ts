// Why the toolkit says its browser went away: a WebSocket server on loopback ends the connection as
// the router and the gateway do (the close codes and reasons of proxy/sessions/close-reasons.ts), and
// the model reads that reason whole, in the error of the command in flight and in the session's
// close, so it can tell the user which setting to change. Without a reason, the code's own words.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { WebSocketServer } from 'ws';
import { CLOSE_TEXTS, idleTimeoutText } from '../sessions/close-reasons';
import { agentError, closedWords, closeWords, openBrowser } from './cdp';
import { AgentError } from './types';

let server: WebSocketServer;
let base: string;

before(async () => {
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server.once('listening', resolve));
  base = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The first command is answered by the close frame the URL asks for (or by nothing: /silent).
  server.on('connection', (socket, req) => {
    const asked = new URL(req.url ?? '/', base).searchParams;
    if (!asked.has('code')) return;
    socket.once('message', () => socket.close(Number(asked.get('code')), asked.get('reason') ?? ''));
  });
});
after(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** What a command in flight and the connection's close say when the server closes with `code` and `reason`. */
async function closedWith(code: number, reason: string): Promise<{ failed: unknown; closed: string }> {
  const cdp = await openBrowser(`${base}/?${new URLSearchParams({ code: String(code), reason })}`);
  const closed = new Promise<string>((resolve) => cdp.onClose((error) => resolve(closedWords(error))));
  const failed = await cdp.send('Browser.getVersion').then(
    () => assert.fail('the server answers no command'),
    (error: unknown) => agentError(error),
  );
  return { failed, closed: await closed };
}

test("4008 idle timeout: the router's reason, naming sessionIdleTimeoutMs, reaches the command in flight and the close", async () => {
  const { failed, closed } = await closedWith(4008, idleTimeoutText(300_000));
  const expected = "the browser session ended: idle timeout: no traffic for 300 s; set the router's sessionIdleTimeoutMs (Settings > Routing > Idle timeout)";
  assert.equal(closed, expected);
  assert.ok(failed instanceof AgentError);
  assert.equal(failed.code, 'closed');
  assert.equal(failed.message, expected);
});

test('the other codes a router or gateway ends a session with: their reason is passed on whole', async () => {
  const sent: [number, string][] = [
    [4009, CLOSE_TEXTS.lifetime],
    [4000, CLOSE_TEXTS.controlPlane],
    [4001, CLOSE_TEXTS.keyRevoked],
    [4002, CLOSE_TEXTS.keyRotated],
    [4003, CLOSE_TEXTS.workspaceDeletion],
    [4004, CLOSE_TEXTS.workspaceSuspended],
    [4005, CLOSE_TEXTS.chatLinkRevoked],
    [1001, CLOSE_TEXTS.shutdown],
    // The self-hosted gateway's, at its shutdown (proxy/gateway/server.ts).
    [1001, 'gateway shutting down'],
  ];
  const read = await Promise.all(sent.map(([code, reason]) => closedWith(code, reason)));
  assert.deepEqual(
    read.map((r) => r.closed),
    sent.map(([, reason]) => `the browser session ended: ${reason}`),
  );
});

test('a close frame without a reason: what its code means, the setting named for the idle timeout', () => {
  assert.equal(
    closeWords(4008, ''),
    "the browser session ended: it was idle for the router's idle timeout (the router's sessionIdleTimeoutMs, Settings > Routing > Idle timeout)",
  );
  assert.equal(closeWords(4009, ''), 'the browser session ended: it reached the 4-hour limit of a session');
  for (const code of [4000, 4001, 4002, 4003, 4004, 4005, 1001, 1011]) {
    assert.match(closeWords(code, ''), /^the browser session ended: \w/, `${code}`);
  }
  assert.equal(closeWords(1000, ''), 'the browser session ended');
  assert.equal(closeWords(1005, ''), 'the browser session ended');
  assert.equal(closeWords(1006, ''), 'the browser connection closed (1006)');
  assert.equal(closeWords(4999, 'something else'), 'the browser session ended (4999: something else)');
});

test('a command the browser leaves unanswered: a timeout naming the command and the deadline; closing it ourselves ends the session', async () => {
  const cdp = await openBrowser(`${base}/silent`);
  const failed = agentError(await cdp.send('Page.navigate', { url: 'about:blank' }, undefined, 1_000).catch((error: unknown) => error));
  assert.ok(failed instanceof AgentError);
  assert.equal(failed.code, 'timeout');
  assert.equal(failed.message, 'the browser did not answer Page.navigate within 1 s');
  const closed = new Promise<string>((resolve) => cdp.onClose((error) => resolve(closedWords(error))));
  cdp.close();
  assert.equal(await closed, 'the session was closed');
  const after = agentError(await cdp.send('Browser.getVersion').catch((error: unknown) => error));
  assert.ok(after instanceof AgentError && after.code === 'closed' && after.message === 'the session was closed');
});

test("a refused upgrade: the status and the body's reason; nothing listening: the socket's own words", async () => {
  const refusing = new WebSocketServer({ host: '127.0.0.1', port: 0, verifyClient: (_info, done) => done(false, 401, 'wrong token') });
  await new Promise((resolve) => refusing.once('listening', resolve));
  try {
    const { port } = refusing.address() as AddressInfo;
    await assert.rejects(
      openBrowser(`ws://127.0.0.1:${port}/`),
      (error: unknown) => error instanceof AgentError && error.code === 'browser' && error.message === 'no browser could be opened: 401 wrong token',
    );
  } finally {
    await new Promise((resolve) => refusing.close(resolve));
  }
  await assert.rejects(
    openBrowser('ws://127.0.0.1:1/'),
    (error: unknown) =>
      error instanceof AgentError && error.code === 'browser' && /^no browser could be opened: connect ECONNREFUSED 127\.0\.0\.1:1$/.test(error.message),
  );
});
