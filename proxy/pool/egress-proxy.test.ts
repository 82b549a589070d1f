// The pool's egress proxy over real sockets: CONNECT tunnels and absolute-form http requests are
// checked under the policy, names resolved here once, refusals are network errors.
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

/** Sends a CONNECT and returns the proxy's status line (the tunnel is closed after). */
function connectThrough(proxy: EgressProxy, authority: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(proxy.port, '127.0.0.1', () => socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`));
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk.toString();
      if (data.includes('\r\n\r\n')) {
        socket.destroy();
        resolve(data.split('\r\n')[0]!);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(data.split('\r\n')[0] ?? ''));
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

test('deny: loopback (by address or by name), private and metadata targets are refused; CONNECT gets 403, plain http a closed connection', async () => {
  await withProxy({ privateNetwork: 'deny', internalPorts: new Set() }, async (proxy) => {
    for (const target of [`127.0.0.1:${sitePort}`, `localhost:${sitePort}`, `[::1]:${sitePort}`, '10.0.0.1:443', '169.254.169.254:80']) {
      assert.match(await connectThrough(proxy, target), /^HTTP\/1\.1 403/, target);
    }
    const refused = await getThrough(proxy, `http://127.0.0.1:${sitePort}/secret`);
    assert.ok(refused instanceof Error, 'a network error, not a page');
    assert.ok(refused instanceof Error && /socket hang up|ECONNRESET/.test(refused.message), String(refused));
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
      assert.ok((await getThrough(proxy, `http://127.0.0.1:${internalPort}/`)) instanceof Error);
      assert.ok((await getThrough(proxy, 'http://169.254.169.254/latest/meta-data/')) instanceof Error);
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
