// The fast lane between a client and its browser: the pool hands the client's own WebSocket
// handshake (key, extensions, subprotocol) to the browser and returns the browser's 101, so both
// ends agree on framing and compression; after that, bytes are piped both ways untouched. `pipe`
// pauses the reading side while the writing side's buffer is full. Frames are followed by their
// headers only (FrameCounter) for counts and for a clean close frame when the browser goes away.
import http, { type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import { closeFrame, FrameCounter } from './frames';

/** Why a WebSocket upgrade request cannot be forwarded, or undefined when it can. */
export function invalidUpgrade(req: IncomingMessage): string | undefined {
  if (req.method !== 'GET') return 'WebSocket upgrades use GET';
  if (req.headers.upgrade?.toLowerCase() !== 'websocket') return 'Upgrade: websocket expected';
  if (req.headers['sec-websocket-version'] !== '13') return 'Sec-WebSocket-Version: 13 expected';
  const key = req.headers['sec-websocket-key'];
  if (!key || !/^[A-Za-z0-9+/]{22}==$/.test(key.trim())) return 'a valid Sec-WebSocket-Key is required';
  return undefined;
}

export interface Upstream {
  res: IncomingMessage;
  socket: Socket;
  head: Buffer;
}

/** Opens the browser's WebSocket with the client's handshake headers. */
export function connectUpstream(wsUrl: string, req: IncomingMessage, timeoutMs: number, signal: AbortSignal): Promise<Upstream> {
  const url = new URL(wsUrl);
  const headers: Record<string, string> = {
    Connection: 'Upgrade',
    Upgrade: 'websocket',
    'Sec-WebSocket-Version': '13',
    'Sec-WebSocket-Key': req.headers['sec-websocket-key']!.trim(),
  };
  for (const name of ['sec-websocket-extensions', 'sec-websocket-protocol'] as const) {
    if (req.headers[name]) headers[name] = req.headers[name];
  }
  return new Promise((resolve, reject) => {
    const request = http.request({ host: url.hostname, port: url.port, path: url.pathname, headers, timeout: timeoutMs, signal });
    request.once('upgrade', (res, socket, head) => resolve({ res, socket: socket as Socket, head }));
    request.once('response', (res) => {
      res.resume();
      reject(new Error(`browser answered the WebSocket handshake with ${res.statusCode}`));
    });
    request.once('timeout', () => request.destroy(new Error(`browser handshake took over ${timeoutMs} ms`)));
    request.once('error', reject);
    request.end();
  });
}

export type RelayEnd = 'client' | 'browser';

export class Relay {
  readonly toClient = new FrameCounter();
  readonly toBrowser = new FrameCounter();
  readonly ended: Promise<RelayEnd>;
  private finished = false;
  private resolveEnded!: (by: RelayEnd) => void;

  constructor(
    private readonly client: Duplex,
    clientHead: Buffer,
    private readonly upstream: Upstream,
    extraHeaders: Record<string, string>,
  ) {
    this.ended = new Promise((resolve) => (this.resolveEnded = resolve));
    const browser = upstream.socket;
    const client_ = client as Socket;
    client_.setNoDelay?.(true);
    client_.setTimeout?.(0);
    client_.setKeepAlive?.(true, 30_000);
    browser.setNoDelay(true);

    const lines = [`HTTP/1.1 101 Switching Protocols`];
    const raw = upstream.res.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) lines.push(`${raw[i]}: ${raw[i + 1]}`);
    for (const [name, value] of Object.entries(extraHeaders)) lines.push(`${name}: ${value}`);
    client.write(`${lines.join('\r\n')}\r\n\r\n`);

    browser.on('data', (chunk: Buffer) => this.toClient.push(chunk));
    client.on('data', (chunk: Buffer) => this.toBrowser.push(chunk));
    if (upstream.head.length > 0) { this.toClient.push(upstream.head); client.write(upstream.head); }
    if (clientHead.length > 0) { this.toBrowser.push(clientHead); browser.write(clientHead); }
    browser.pipe(client, { end: false });
    client.pipe(browser, { end: false });

    for (const event of ['end', 'close', 'error']) {
      client.on(event, () => this.finish('client'));
      browser.on(event, () => this.finishFromBrowser(1011, 'browser closed'));
    }
    if (client.readableEnded || client.destroyed) this.finish('client');
  }

  /** Ends the client's connection with a close frame of ours (when the stream is between frames). */
  closeClient(code: number, reason: string): void {
    this.finishFromBrowser(code, reason);
  }

  private finishFromBrowser(code: number, reason: string): void {
    if (this.finished) return;
    const browser = this.upstream.socket;
    browser.unpipe(this.client);
    this.client.unpipe(browser);
    browser.destroy();
    if (!this.client.destroyed) {
      if (this.toClient.atBoundary && !this.toClient.closeSeen) this.client.write(closeFrame(code, reason));
      this.client.end();
      // Keep reading (and discarding) until the client's FIN: a paused socket is not an active
      // handle, so nothing would keep a stopping pool's loop alive until it closes.
      this.client.resume();
      setTimeout(() => this.client.destroy(), 2_000).unref();
    }
    this.finish('browser');
  }

  private finish(by: RelayEnd): void {
    if (this.finished) return;
    this.finished = true;
    this.upstream.socket.destroy();
    if (by === 'client') this.client.destroy();
    this.resolveEnded(by);
  }
}
