// The web process's reader of a router's live state, against an HTTP server of the test's own that
// answers as the proxy's internal endpoint would, and as a broken or absent proxy would.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { RouterLiveStatus, RouterStatusAnswer } from '../routers/live-status';
import { setEnv } from '../config/testing';
import { readProxyStatus } from './status';

setEnv({ PROXY_INTERNAL_TOKEN: 'int_test-token' });
let answer: (req: IncomingMessage, res: ServerResponse) => void = () => {};
const seen: { url: string; authorization: string | undefined }[] = [];
const server = createServer((req, res) => {
  seen.push({ url: req.url!, authorization: req.headers.authorization });
  answer(req, res);
});

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  setEnv({ PROXY_INTERNAL_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` });
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

const live: RouterStatusAnswer = {
  ok: true,
  providers: [{ id: 'p1', slug: 'local', healthy: false, priority: 1, active: 2, maxConcurrent: 4, cooldownUntil: '2026-11-30T05:00:00.000Z' }],
  queued: 3,
};
const outcome = (s: RouterLiveStatus) => ({ available: s.available, reason: s.available ? undefined : s.reason });
const sends = (status: number, body: string) => (_req: IncomingMessage, res: ServerResponse) =>
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(body);

test("the proxy's answer reaches the dashboard field for field, asked for with the service token", async () => {
  answer = sends(200, JSON.stringify({ ...live, providers: [{ ...live.providers[0], extra: 'not passed on' }] }));
  const status = await readProxyStatus('router/1');
  assert.equal(status.available, true);
  assert.deepEqual(status.providers, live.providers);
  assert.equal(status.queued, 3);
  assert.deepEqual(seen.at(-1), { url: '/internal/routers/router%2F1/status', authorization: 'Bearer int_test-token' });
});

test('an answer of another shape, an error status or no proxy at all is "unavailable" with the reason, never an exception', async () => {
  answer = sends(200, JSON.stringify({ ok: true, providers: [{ id: 'p1', slug: 'local', healthy: 'yes' }], queued: 0 }));
  assert.deepEqual(outcome(await readProxyStatus('r1')), { available: false, reason: 'the proxy sent an answer this dashboard does not understand' });
  answer = sends(200, 'not json');
  assert.deepEqual(outcome(await readProxyStatus('r1')), { available: false, reason: 'the proxy sent an answer this dashboard does not understand' });
  answer = sends(401, 'internal endpoint: the service token is missing or wrong');
  assert.deepEqual(outcome(await readProxyStatus('r1')), { available: false, reason: 'the proxy answered HTTP 401' });

  const port = (server.address() as AddressInfo).port;
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const gone = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  setEnv({ PROXY_INTERNAL_URL: `http://127.0.0.1:${gone}` });
  const status = outcome(await readProxyStatus('r1'));
  setEnv({ PROXY_INTERNAL_URL: `http://127.0.0.1:${port}` });
  assert.deepEqual(status, { available: false, reason: `the proxy did not answer at http://127.0.0.1:${gone}` });
});
