// Opens a WebSocket to a provider at the HTTP level, so the fast lane can pipe raw bytes after
// the handshake. The connection timeout runs until the provider's `101`, not until TCP connect:
// a provider that accepts TCP and then stalls is a timeout.
import { createHash, randomBytes } from 'node:crypto';
import type net from 'node:net';
import { connectEgress } from '../../lib/net/egress-connect';
import { EgressRefusedError, egressPolicy, type EgressPolicy } from '../../lib/net/egress-policy';
import { isAtCapacity } from './at-capacity';

export const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
export const acceptFor = (key: string) => createHash('sha1').update(key + WS_GUID).digest('base64');

export interface Upstream {
  socket: net.Socket;
  /** Bytes the provider sent after its handshake (already the start of the frame stream). */
  head: Buffer;
  headers: Record<string, string>;
  connectMs: number;
}

/** `full`: a managed provider answered that it is at capacity (at-capacity.ts); not a failure. */
export class DialError extends Error {
  constructor(readonly kind: 'refused' | 'timeout' | 'rejected' | 'error' | 'full', message: string) {
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
}

const MAX_HANDSHAKE_BYTES = 16 * 1024;

export function dialUpstream(options: DialOptions): Promise<Upstream> {
  const url = new URL(options.url);
  const secure = url.protocol === 'wss:' || url.protocol === 'https:';
  const port = Number(url.port || (secure ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const key = randomBytes(16).toString('base64');
  const started = performance.now();

  return new Promise((resolve, reject) => {
    let socket: net.Socket | undefined;
    let settled = false;
    const fail = (error: DialError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket?.destroy();
      reject(error);
    };
    const timer = setTimeout(() => fail(new DialError('timeout', `no WebSocket handshake within ${options.timeoutMs} ms`)), options.timeoutMs);
    // The name is resolved and checked under the egress policy; the socket goes to that address.
    connectEgress(options.policy ?? egressPolicy(), { host, port, secure, alpn: ['http/1.1'] }).then(
      (opened) => {
        if (settled) return void opened.destroy();
        socket = opened;
        handshake(opened);
      },
      (error: NodeJS.ErrnoException) => {
        if (error instanceof EgressRefusedError) fail(new DialError('error', `refused by the egress policy: ${error.message}`));
        else fail(new DialError('error', error.code ? `${error.code}: ${error.message}` : error.message));
      },
    );

    function handshake(socket: net.Socket) {
      socket.setNoDelay(true);
      socket.once(secure ? 'secureConnect' : 'connect', () => {
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
        if (url.username) lines.push(`Authorization: Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`);
        for (const [name, value] of Object.entries(options.headers ?? {})) {
          if (!/[\r\n]/.test(name + value)) lines.push(`${name}: ${value}`);
        }
        socket.write(`${lines.join('\r\n')}\r\n\r\n`);
      });

      let buffered = Buffer.alloc(0);
      const onData = (chunk: Buffer) => {
        buffered = Buffer.concat([buffered, chunk]);
        const end = buffered.indexOf('\r\n\r\n');
        if (end === -1) {
          if (buffered.length > MAX_HANDSHAKE_BYTES) fail(new DialError('rejected', 'handshake response too large'));
          return;
        }
        socket.off('data', onData);
        const [statusLine, ...headerLines] = buffered.subarray(0, end).toString('latin1').split('\r\n');
        const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0);
        const headers: Record<string, string> = {};
        for (const line of headerLines) {
          const colon = line.indexOf(':');
          if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
        }
        if (status !== 101) {
          const body = buffered.subarray(end + 4, end + 4 + 512).toString('utf8').trim();
          if (isAtCapacity(status, headers, body)) return fail(new DialError('full', `at capacity (HTTP ${status}${body ? `: ${body.split('\n')[0]}` : ''})`));
          return fail(new DialError('rejected', `upgrade rejected with HTTP ${status || 'garbage'}`));
        }
        if (headers['sec-websocket-accept'] !== acceptFor(key)) return fail(new DialError('rejected', 'bad Sec-WebSocket-Accept from the provider'));
        settled = true;
        clearTimeout(timer);
        socket.pause();
        resolve({ socket, head: buffered.subarray(end + 4), headers, connectMs: performance.now() - started });
      };
      socket.on('data', onData);
      socket.once('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'ECONNREFUSED') fail(new DialError('refused', 'connection refused'));
        else fail(new DialError('error', error.code ? `${error.code}: ${error.message}` : error.message));
      });
      socket.once('close', () => fail(new DialError('rejected', 'the provider closed the connection during the handshake')));
    }
  });
}
