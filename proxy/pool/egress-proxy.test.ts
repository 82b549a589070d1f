// The pool's egress proxy over real sockets: CONNECT tunnels and absolute-form http requests are
// checked under the policy, names resolved here once, refusals a 403 that says why.
import assert from 'node:assert/strict';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { EgressPolicy } from '../../lib/net/egress-policy';
import { startEgressProxy, type EgressProxy } from './egress-proxy';
import { testLog } from './testing';

let site: http.Server;
let sitePort: number;
before(async () => {
  site = http.createServer((req, res) => res.end(`hello ${req.headers.host} ${req.url}`));
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  sitePort = (site.address() as AddressInfo).port;
});
after(() => site.close());

async function withProxy(policy: EgressPolicy, run: (proxy: EgressProxy) => Promise<void>) {
  const proxy = await startEgressProxy({ policy, log: testLog });
  try {
    await run(proxy);
  } finally {
    await proxy.close();
  }
}

/** Sends a CONNECT and returns the proxy's status line, or with `whole` all it sent until it closed (the tunnel is closed after). */
function connectThrough(proxy: EgressProxy, authority: string, whole = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(proxy.port, '127.0.0.1', () => socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`));
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk.toString();
      if (!whole && data.includes('\r\n\r\n')) {
        socket.destroy();
        resolve(data.split('\r\n')[0]!);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(whole ? data : (data.split('\r\n')[0] ?? '')));
  });
}

/** An absolute-form GET through the proxy: the body, or the error when the proxy hangs up. */
function getThrough(proxy: EgressProxy, url: string): Promise<{ status: number; body: string } | Error> {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port: proxy.port, path: url, headers: { host: new URL(url).host } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', (error) => resolve(error));
    req.end();
  });
}

test('deny: loopback (by address or by name), private and metadata targets are refused with a 403 that names the policy, CONNECT and plain http alike', async () => {
  await withProxy({ privateNetwork: 'deny', internalPorts: new Set() }, async (proxy) => {
    for (const target of [`127.0.0.1:${sitePort}`, `localhost:${sitePort}`, `[::1]:${sitePort}`, '10.0.0.1:443', '169.254.169.254:80']) {
      const answer = await connectThrough(proxy, target, true);
      assert.match(answer, /^HTTP\/1\.1 403 Forbidden\r\n/, target);
      assert.match(answer, /\r\nX-Egress-Refused: [^\r]*PRIVATE_NETWORK/, target);
      assert.match(answer, /\r\n\r\nThe browser's connection to .* was refused by this service's egress policy: .*PRIVATE_NETWORK/, target);
    }
    const refused = await getThrough(proxy, `http://127.0.0.1:${sitePort}/secret`);
    assert.ok(!(refused instanceof Error), String(refused));
    assert.equal(refused.status, 403);
    assert.match(refused.body, /<h1>Refused by the egress policy<\/h1>/);
    assert.match(refused.body, /127\.0\.0\.1 is a loopback address, refused under PRIVATE_NETWORK=deny/);
    assert.doesNotMatch(refused.body, /hello/, 'nothing of the site');
  });
});

test('allow: private targets pass, but link-local and internal ports are refused', async () => {
  const internal = net.createServer();
  await new Promise<void>((r) => internal.listen(0, '127.0.0.1', r));
  const internalPort = (internal.address() as AddressInfo).port;
  try {
    await withProxy({ privateNetwork: 'allow', internalPorts: new Set([internalPort]) }, async (proxy) => {
      assert.match(await connectThrough(proxy, `127.0.0.1:${sitePort}`), /^HTTP\/1\.1 200/);
      assert.deepEqual(await getThrough(proxy, `http://localhost:${sitePort}/page?q=1`), { status: 200, body: `hello localhost:${sitePort} /page?q=1` });
      assert.match(await connectThrough(proxy, `127.0.0.1:${internalPort}`), /^HTTP\/1\.1 403/);
      assert.match(await connectThrough(proxy, '169.254.169.254:80'), /^HTTP\/1\.1 403/);
      for (const [url, rule] of [
        [`http://127.0.0.1:${internalPort}/`, 'own ports'],
        ['http://169.254.169.254/latest/meta-data/', 'a link-local address'],
      ] as const) {
        const refused = await getThrough(proxy, url);
        assert.ok(!(refused instanceof Error) && refused.status === 403, `${url}: ${String(refused)}`);
        assert.ok(!(refused instanceof Error) && refused.body.includes(`${rule}`) && refused.body.includes('refused whatever PRIVATE_NETWORK says'), url);
      }
    });
  } finally {
    internal.close();
  }
});

test('a tunnel carries bytes both ways once allowed', async () => {
  await withProxy({ privateNetwork: 'allow', internalPorts: new Set() }, async (proxy) => {
    const body = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(proxy.port, '127.0.0.1', () => socket.write(`CONNECT 127.0.0.1:${sitePort} HTTP/1.1\r\n\r\n`));
      let data = '';
      let sent = false;
      socket.on('data', (chunk) => {
        data += chunk.toString();
        if (!sent && data.includes('\r\n\r\n')) {
          sent = true;
          data = '';
          socket.write(`GET /tunnelled HTTP/1.1\r\nHost: inside\r\nConnection: close\r\n\r\n`);
        }
      });
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    assert.match(body, /hello inside \/tunnelled/);
  });
});

test("each plain http request reaches the site on a connection of its own: none is shared between sessions, and a site's keep-alive close never fails the next request", async () => {
  // A site that keeps its connections open after answering (keep-alive) but closes one as soon as a
  // second request arrives on it, as a server whose keep-alive timeout ends at that moment does.
  let connections = 0;
  const closing = net.createServer((socket) => {
    connections += 1;
    let answered = false;
    socket.on('data', () => {
      if (answered) return void socket.destroy();
      answered = true;
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\nok');
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((r) => closing.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(closing.address() as AddressInfo).port}/`;
  try {
    await withProxy({ privateNetwork: 'allow', internalPorts: new Set() }, async (proxy) => {
      for (let i = 0; i < 3; i++) assert.deepEqual(await getThrough(proxy, url), { status: 200, body: 'ok' }, `request ${i + 1}`);
      assert.equal(connections, 3);
    });
  } finally {
    closing.close();
  }
});
