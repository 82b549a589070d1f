// Upstreams that misbehave, for provider tests, plus a pass-through that records what we send:
// real servers on loopback, no mocks of our own code.
import http from 'node:http';
import net from 'node:net';
import { freePort } from '../../scripts/lib/ports';

export interface Upstream {
  url: string;
  stop(): Promise<void>;
}

/** Accepts TCP connections and never says a word (a provider that hangs on the upgrade). */
export async function startHangingUpstream(): Promise<Upstream> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `ws://127.0.0.1:${port}/devtools/browser/hang`,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An address where nothing listens: the connection is refused. */
export async function refusedUrl(): Promise<string> {
  return `ws://127.0.0.1:${await freePort()}/devtools/browser/refused`;
}

/** An HTTP server that answers every request, and every WebSocket upgrade, with `status`. */
export async function startRejectingUpstream(status = 403): Promise<Upstream> {
  const server = http.createServer((_req, res) => res.writeHead(status, { 'content-type': 'text/plain' }).end('no\n'));
  server.on('upgrade', (_req, socket) => {
    socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: text/plain\r\nContent-Length: 3\r\nConnection: close\r\n\r\nno\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `ws://127.0.0.1:${port}/devtools/browser/rejected`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface RecordingUpstream extends Upstream {
  /** Headers of every request that reached it: WebSocket upgrades and plain HTTP (e.g. /pool/status). */
  seen: { path: string; upgrade: boolean; headers: http.IncomingHttpHeaders }[];
}

/**
 * Sits in front of a real browser: records each request's headers, then passes WebSocket upgrades
 * through byte for byte. Plain HTTP requests get 404 (so it is not a managed pool).
 */
export async function startRecordingUpstream(browserPort: number): Promise<RecordingUpstream> {
  const seen: RecordingUpstream['seen'] = [];
  const piped = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    seen.push({ path: req.url ?? '/', upgrade: false, headers: req.headers });
    res.writeHead(404).end();
  });
  server.on('upgrade', (req, socket, head) => {
    seen.push({ path: req.url ?? '/', upgrade: true, headers: req.headers });
    const upstream = net.connect(browserPort, '127.0.0.1', () => {
      piped.add(upstream).add(socket as net.Socket);
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `ws://127.0.0.1:${port}`,
    seen,
    stop: async () => {
      for (const socket of piped) socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
