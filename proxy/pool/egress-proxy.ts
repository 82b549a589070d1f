// The pool's egress proxy: every pool browser is started with `--proxy-server` pointing here (and
// `--proxy-bypass-list=<-loopback>`, so localhost is no exception), which makes this the one way a
// tenant's page reaches the network. Each request is checked under the egress policy
// (lib/net/egress-policy.ts): the name is resolved here, once, and the connection is made to the
// checked address. A refused request is answered 403 with the reason, which names PRIVATE_NETWORK:
// a plain http request gets a page that says so (the browser shows it; a script reads a 403 whose
// X-Egress-Refused header and page are plainly not the site's), a CONNECT (https, wss, ws) the
// reason as text, which Chromium reports as ERR_TUNNEL_CONNECTION_FAILED.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from '../../lib/log';
import { pinnedLookup } from '../../lib/net/egress-connect';
import { EgressRefusedError, resolveEgress, type EgressPolicy } from '../../lib/net/egress-policy';

export interface EgressProxy {
  url: string;
  port: number;
  close(): Promise<void>;
}

const CONNECT_TIMEOUT_MS = 30_000;
// Hop-by-hop headers (RFC 9110 §7.6.1) and the proxy's own: never forwarded.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

export async function startEgressProxy({ policy, log }: { policy: EgressPolicy; log: Logger }): Promise<EgressProxy> {
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => void forwardRequest(policy, log, req, res));
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) => void tunnel(policy, log, req, socket, head));
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/** `host:port` of a CONNECT request (`[::1]:443` for IPv6), or null when malformed. */
function authority(target: string | undefined): { host: string; port: number } | null {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]\s/]+):(\d{1,5})$/.exec(target ?? '');
  const port = Number(match?.[2]);
  if (!match || port < 1 || port > 65535) return null;
  return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
}

async function tunnel(policy: EgressPolicy, log: Logger, req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
  client.on('error', () => {});
  const target = authority(req.url);
  if (!target) return void client.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
  let address: string;
  try {
    address = (await resolveEgress(policy, target.host, target.port)).address;
  } catch (error) {
    logRefusal(log, error, `${target.host}:${target.port}`);
    if (!(error instanceof EgressRefusedError)) return void client.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n');
    const body = Buffer.from(`${refusalText(error)}\n`);
    const head = `HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${body.length}\r\nX-Egress-Refused: ${headerSafe(error.reason)}\r\nConnection: close\r\n\r\n`;
    return void client.end(Buffer.concat([Buffer.from(head), body]));
  }
  const upstream = net.connect({ host: address, port: target.port });
  upstream.setTimeout(CONNECT_TIMEOUT_MS, () => upstream.destroy());
  upstream.once('connect', () => {
    upstream.setTimeout(0);
    upstream.setNoDelay(true);
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.on('error', () => {
    if (!upstream.connecting) return client.destroy();
    client.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n');
  });
  upstream.once('close', () => client.destroy());
  client.once('close', () => upstream.destroy());
}

async function forwardRequest(policy: EgressPolicy, log: Logger, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let url: URL;
  try {
    url = new URL(req.url ?? '');
    if (url.protocol !== 'http:') throw new Error('not http');
  } catch {
    res.writeHead(400, { connection: 'close' }).end('this is a forward proxy: absolute http:// URLs or CONNECT only');
    return;
  }
  const port = Number(url.port || 80);
  let lookup: ReturnType<typeof pinnedLookup>;
  try {
    lookup = pinnedLookup(await resolveEgress(policy, url.hostname, port));
  } catch (error) {
    logRefusal(log, error, `${url.hostname}:${port}`);
    if (!(error instanceof EgressRefusedError)) return void req.socket.destroy();
    res.writeHead(403, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'x-egress-refused': headerSafe(error.reason),
      connection: 'close',
    });
    return void res.end(refusalPage(error));
  }
  // A connection of its own (agent: false), not one from Node's keep-alive pool: a pooled connection
  // would carry one tenant's requests on a connection another's browser opened, and one the site
  // closes as it is reused fails the request (Node does not retry it as a browser would).
  const upstream = http.request({
    host: url.hostname,
    port,
    method: req.method,
    path: `${url.pathname}${url.search}`,
    headers: forwardedHeaders(req),
    lookup,
    setHost: false,
    agent: false,
  });
  relayAnswer(upstream, req, res);
}

/** The request's headers for the site: its raw names and order, without the hop-by-hop ones and those its Connection lists. */
function forwardedHeaders(req: IncomingMessage): http.OutgoingHttpHeaders {
  const headers: http.OutgoingHttpHeaders = {};
  const listed = new Set(
    String(req.headers.connection ?? '')
      .toLowerCase()
      .split(',')
      .map((s) => s.trim()),
  );
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || listed.has(lower)) continue;
    const previous = headers[name];
    headers[name] = previous === undefined ? req.rawHeaders[i + 1]! : ([] as string[]).concat(previous as string | string[], req.rawHeaders[i + 1]!);
  }
  return headers;
}

/** Sends the request's body up and the site's answer back (502 when it fails before one); either side's end ends the other. */
function relayAnswer(upstream: http.ClientRequest, req: IncomingMessage, res: ServerResponse): void {
  upstream.setTimeout(CONNECT_TIMEOUT_MS, () => upstream.destroy());
  upstream.on('response', (answer) => {
    upstream.setTimeout(0);
    const out: string[] = [];
    for (let i = 0; i < answer.rawHeaders.length; i += 2) {
      if (!HOP_BY_HOP.has(answer.rawHeaders[i]!.toLowerCase())) out.push(answer.rawHeaders[i]!, answer.rawHeaders[i + 1]!);
    }
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, out);
    answer.pipe(res);
    answer.on('error', () => res.destroy());
  });
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502, { connection: 'close' }).end();
    else res.destroy();
  });
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  req.pipe(upstream);
}

/** What a refused request is told: the target and the policy's reason, which names PRIVATE_NETWORK. */
const refusalText = (error: EgressRefusedError) => `The browser's connection to ${error.target} was refused by this service's egress policy: ${error.reason}.`;

const headerSafe = (text: string) => text.replace(/[^\x20-\x7e]/g, '?');

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function refusalPage(error: EgressRefusedError): string {
  return `<!doctype html><html lang="en"><meta charset="utf-8"><title>Refused by the egress policy</title><body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem"><h1>Refused by the egress policy</h1><p>${escapeHtml(refusalText(error))}</p></body></html>`;
}

function logRefusal(log: Logger, error: unknown, target: string): void {
  if (error instanceof EgressRefusedError) log.info({ target, reason: error.reason }, 'egress refused');
  else log.debug({ target, err: (error as Error).message }, 'egress lookup failed');
}
