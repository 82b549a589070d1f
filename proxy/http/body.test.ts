// readBody on a real HTTP server and socket: a body within the limit is read whole; past the limit
// (declared, or as it streams in) the handler answers at once, the client that is still sending
// finishes and reads that answer without a reset, and the connection serves the next request; a
// body that goes on far past the limit has its connection cut.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { readBody } from './body';
import { text } from './respond';

const LIMIT = 1024;
const DRAIN_LIMIT = 256 * 1024;
let server: http.Server;
let port: number;

before(async () => {
  server = http.createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req, { limit: LIMIT, drainLimit: DRAIN_LIMIT });
    if (body === null) return text(res, 413, 'too large');
    text(res, 200, `read ${body.length}`);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});
after(() => server.close());

interface Answer {
  status: number;
  text: string;
  socket: import('node:net').Socket;
}

/** One request on `agent`; `send` writes the body once the request is open, given the answer's arrival. */
function request(
  agent: http.Agent,
  headers: http.OutgoingHttpHeaders,
  send: (req: http.ClientRequest, answered: Promise<void>) => Promise<void>,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let markAnswered = () => {};
    const answered = new Promise<void>((r) => (markAnswered = r));
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/', agent, headers }, (res) => {
      markAnswered();
      const socket = res.socket;
      let body = '';
      res
        .setEncoding('utf8')
        .on('data', (c: string) => (body += c))
        .on('end', () => resolve({ status: res.statusCode!, text: body.trim(), socket }));
    });
    req.on('error', reject);
    send(req, answered).catch(reject);
  });
}

const chunk = (size: number) => Buffer.alloc(size, 0x61);

test('a body within the limit is read whole', async () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const answer = await request(agent, { 'content-length': String(LIMIT) }, async (req) => void req.end(chunk(LIMIT)));
  assert.deepEqual([answer.status, answer.text], [200, `read ${LIMIT}`]);
  agent.destroy();
});

test('declared over the limit: answered before the body is sent; the client sends it all, reads the 413, and the connection serves the next request', async () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const size = 64 * 1024;
  const refused = await request(agent, { 'content-length': String(size) }, async (req, answered) => {
    req.flushHeaders();
    await answered; // nothing of the body sent yet
    req.end(chunk(size));
  });
  assert.deepEqual([refused.status, refused.text], [413, 'too large']);
  const next = await request(agent, { 'content-length': '3' }, async (req) => void req.end('abc'));
  assert.deepEqual([next.status, next.text], [200, 'read 3']);
  assert.equal(next.socket, refused.socket, 'the same connection');
  agent.destroy();
});

test('streamed past the limit: answered at once, the client goes on sending without a reset, and the connection is kept', async () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  for (let round = 0; round < 10; round++) {
    const refused = await request(agent, { 'transfer-encoding': 'chunked' }, async (req, answered) => {
      req.write(chunk(LIMIT + 1));
      await answered; // the body has not ended
      // (No waiting for 'drain': Node's client does not pass it on once the answer has ended.)
      for (let i = 0; i < 12; i++) req.write(chunk(16 * 1024));
      req.end();
    });
    assert.deepEqual([refused.status, refused.text], [413, 'too large'], `round ${round}`);
  }
  const next = await request(agent, { 'content-length': '3' }, async (req) => void req.end('abc'));
  assert.deepEqual([next.status, next.text], [200, 'read 3']);
  agent.destroy();
});

test('a body that goes on past the drain limit has its connection cut', async () => {
  const agent = new http.Agent({ keepAlive: false });
  const cut = new Promise<string>((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/', agent, headers: { 'transfer-encoding': 'chunked' } }, (res) => {
      assert.equal(res.statusCode, 413);
      res.resume();
      // Each chunk once the last is flushed ('drain' does not come once the answer has ended).
      const pump = (): void => void (!req.destroyed && req.write(chunk(64 * 1024), (error) => !error && pump()));
      pump();
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    req.on('close', () => resolve('closed'));
    req.write(chunk(LIMIT + 1));
  });
  assert.match(await cut, /^(ECONNRESET|EPIPE|closed)$/);
});
