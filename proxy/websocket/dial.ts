// Opens a WebSocket at the HTTP level, so a relay can pipe raw bytes after the handshake: the
// proxy dials providers with it, the pool dials its browsers. The connection timeout runs until
// the `101`, not until TCP connect: a peer that accepts TCP and then stalls is a timeout. An abort
// signal (the client went away) cancels the dial at any point and closes the socket.
import { randomBytes } from 'node:crypto';
import type net from 'node:net';
import { connectEgress } from '../../lib/net/egress-connect';
import { connectThroughProxy } from '../../lib/net/outbound-proxy';
import { EgressRefusedError, egressPolicy, type EgressPolicy } from '../../lib/net/egress-policy';
import { isAtCapacity } from '../connect/at-capacity';
import { acceptFor } from './handshake';

export interface Upstream {
  socket: net.Socket;
  /** Bytes the provider sent after its handshake (already the start of the frame stream). */
  head: Buffer;
  headers: Record<string, string>;
  connectMs: number;
}

/**
 * `full`: a managed provider answered that it is at capacity (connect/at-capacity.ts), not a
 * failure. `aborted`: the dial was cancelled through its signal.
 */
export class DialError extends Error {
  /** `policy`: the egress policy refuses the address (nothing was dialled; retrying cannot help). */
  constructor(
    readonly kind: 'refused' | 'timeout' | 'rejected' | 'error' | 'full' | 'aborted' | 'policy',
    message: string,
  ) {
    super(message);
  }
}

export interface DialOptions {
  url: string;
  headers?: Record<string, string>;
  timeoutMs: number;
  /** Passed through from the client so both ends agree (the fast lane does not re-frame). */
  extensions?: string;
  protocol?: string;
  /** The egress policy the address is dialled under (the process's own unless exempt). */
  policy?: EgressPolicy;
  /** The Sec-WebSocket-Key to send (the pool hands its client's own key to the browser); random by default. */
  key?: string;
  /** Cancels the dial (DialError 'aborted'); after the 101 it has no effect. */
  signal?: AbortSignal;
  /** An operator's HTTP proxy to tunnel through (the self-hosted gateway only; lib/net/outbound-proxy.ts). */
  viaProxy?: URL | null;
}

const MAX_HANDSHAKE_BYTES = 16 * 1024;

export function dialUpstream(options: DialOptions): Promise<Upstream> {
  const url = new URL(options.url);
  const secure = url.protocol === 'wss:' || url.protocol === 'https:';
  const port = Number(url.port || (secure ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const key = options.key ?? randomBytes(16).toString('base64');
  const started = performance.now();
  const { signal } = options;

  return new Promise((resolve, reject) => {
    let socket: net.Socket | undefined;
    let settled = false;
    const onAbort = () => fail(new DialError('aborted', 'the dial was cancelled'));
    const fail = (error: DialError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket?.destroy();
      reject(error);
    };
    const timer = setTimeout(() => fail(new DialError('timeout', `no WebSocket handshake within ${options.timeoutMs} ms`)), options.timeoutMs);
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    // The name is resolved and checked under the egress policy; the socket goes to that address.
    (options.viaProxy
      ? connectThroughProxy(options.viaProxy, { host, port, secure, alpn: ['http/1.1'] })
      : connectEgress(options.policy ?? egressPolicy(), { host, port, secure, alpn: ['http/1.1'] })
    ).then(
      (opened) => {
        if (settled) return void opened.destroy();
        socket = opened;
        handshake(opened);
      },
      (error: NodeJS.ErrnoException) => {
        if (error instanceof EgressRefusedError) fail(new DialError('policy', `refused by the egress policy: ${error.message}`));
        else fail(new DialError('error', error.code ? `${error.code}: ${error.message}` : error.message));
      },
    );

    function handshake(socket: net.Socket) {
      socket.setNoDelay(true);
      const send = () => socket.write(upgradeRequest(url, key, options));
      // A tunnel through a proxy is connected already; a direct socket or TLS is not yet.
      if (!secure && !socket.connecting) send();
      else socket.once(secure ? 'secureConnect' : 'connect', send);

      awaitUpgrade(socket, key, fail, (head, headers) => {
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        socket.pause();
        resolve({ socket, head, headers, connectMs: performance.now() - started });
      });
    }
  });
}

/** The upgrade request: the address's path, key and credentials, the client's extensions and protocol, the provider's headers. */
function upgradeRequest(url: URL, key: string, options: DialOptions): string {
  const lines = [
    `GET ${url.pathname || '/'}${url.search} HTTP/1.1`,
    `Host: ${url.host}`,
    'Upgrade: websocket',
    'Connection: Upgrade',
    `Sec-WebSocket-Key: ${key}`,
    'Sec-WebSocket-Version: 13',
  ];
  if (options.extensions) lines.push(`Sec-WebSocket-Extensions: ${options.extensions}`);
  if (options.protocol) lines.push(`Sec-WebSocket-Protocol: ${options.protocol}`);
  if (url.username)
    lines.push(`Authorization: Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`);
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (!/[\r\n]/.test(name + value)) lines.push(`${name}: ${value}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** The status and headers (names in lower case) of a response head, without its blank line. */
function responseHead(head: Buffer): { status: number; headers: Record<string, string> } {
  const [statusLine, ...headerLines] = head.toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status, headers };
}

/** Reads the provider's answer to the upgrade: `succeed` with the bytes after it on a valid `101`, else `fail` with why. */
function awaitUpgrade(
  socket: net.Socket,
  key: string,
  fail: (error: DialError) => void,
  succeed: (head: Buffer, headers: Record<string, string>) => void,
): void {
  let buffered = Buffer.alloc(0);
  const onData = (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    const end = buffered.indexOf('\r\n\r\n');
    if (end === -1) {
      if (buffered.length > MAX_HANDSHAKE_BYTES) fail(new DialError('rejected', 'handshake response too large'));
      return;
    }
    socket.off('data', onData);
    const { status, headers } = responseHead(buffered.subarray(0, end));
    if (status !== 101) {
      const body = buffered
        .subarray(end + 4, end + 4 + 512)
        .toString('utf8')
        .trim();
      if (isAtCapacity(status, headers, body)) return fail(new DialError('full', `at capacity (HTTP ${status}${body ? `: ${body.split('\n')[0]}` : ''})`));
      return fail(new DialError('rejected', `upgrade rejected with HTTP ${status || 'garbage'}`));
    }
    if (headers['sec-websocket-accept'] !== acceptFor(key)) return fail(new DialError('rejected', 'bad Sec-WebSocket-Accept from the provider'));
    succeed(buffered.subarray(end + 4), headers);
  };
  socket.on('data', onData);
  socket.once('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'ECONNREFUSED') fail(new DialError('refused', 'connection refused'));
    else fail(new DialError('error', error.code ? `${error.code}: ${error.message}` : error.message));
  });
  socket.once('close', () => fail(new DialError('rejected', 'the provider closed the connection during the handshake')));
}
