// The product's CDP client over a WebSocket of its own: the provider checks (lib/providers) and the
// agent toolkit (proxy/agent) both speak to a browser through it. Flat mode: a tab's commands and
// events carry its `sessionId`. Every wait has a deadline: a server that accepts TCP but never
// upgrades, answers the upgrade with an HTTP error, or stops answering commands fails with a
// CdpError (errors.ts) that the caller words for its reader.
import type { LookupFunction } from 'node:net';
import WebSocket from 'ws';
import { CdpCommands, parseCdp } from './commands';
import { CdpError } from './errors';
import type { CdpEventName, CdpEventParams, CdpMethod, CdpResult, CdpSendParams } from './protocol';

export interface CdpSocketOptions {
  /** Headers of the upgrade request (a provider's token, the agent's forwarded headers). */
  headers?: Record<string, string>;
  /** Until the server's `101` (TCP connect, TLS and the upgrade), not only until TCP connect. */
  handshakeTimeoutMs: number;
  /** The deadline of a command sent without one of its own; none when left out. */
  commandTimeoutMs?: number;
  /** The largest message accepted (a screenshot's base64, a big DOM). */
  maxPayload?: number;
  /** Resolves the host (a pinned, policy-checked address: no DNS rebinding). */
  lookup?: LookupFunction;
}

export type CdpEventHandler<E extends CdpEventName> = (params: CdpEventParams<E>, sessionId: string | undefined) => void;

export interface WaitOptions<E extends CdpEventName> {
  /** Only this CDP session's event (any session's when left out). */
  sessionId?: string;
  timeoutMs: number;
  /** Only an event whose params pass this ends the wait. */
  match?: (params: CdpEventParams<E>) => boolean;
}

/** The first characters of a refusal's body kept for the error (a proxy's reason, a vendor's JSON). */
const REFUSAL_BODY_CHARS = 2_000;

export class CdpSocket {
  private readonly commands: CdpCommands;
  private readonly handlers = new Map<string, Set<CdpEventHandler<CdpEventName>>>();
  private readonly closeListeners = new Set<(error: CdpError) => void>();

  private constructor(
    private readonly socket: WebSocket,
    /** Response headers of the upgrade (a router's X-Session-Id). */
    readonly headers: Readonly<Record<string, string | string[] | undefined>>,
    private readonly commandTimeoutMs: number | undefined,
  ) {
    this.commands = new CdpCommands((text) => socket.send(text));
    socket.on('message', (data) => this.onMessage(data.toString()));
    socket.on('close', (code, reason) =>
      this.end(new CdpError('closed', `the connection closed (${code}${reason.length > 0 ? `: ${reason}` : ''})`, { code, reason: reason.toString() })),
    );
    socket.on('error', (error) => this.end(new CdpError('closed', `the connection failed: ${error.message}`, { cause: error })));
  }

  /** Opens the WebSocket; rejects with a CdpError: refused (an HTTP status), timeout, or unreachable. */
  static open(url: string, options: CdpSocketOptions): Promise<CdpSocket> {
    const { handshakeTimeoutMs } = options;
    return new Promise((resolve, reject) => {
      let settled = false;
      const socket = new WebSocket(url, {
        headers: options.headers ?? {},
        handshakeTimeout: handshakeTimeoutMs,
        perMessageDeflate: false,
        followRedirects: false,
        maxPayload: options.maxPayload ?? 256 * 1024 * 1024,
        ...(options.lookup ? { lookup: options.lookup } : {}),
      });
      let responseHeaders: Record<string, string | string[] | undefined> = {};
      const settle = (error: CdpError | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(guard);
        socket.removeAllListeners();
        if (!error) return resolve(new CdpSocket(socket, responseHeaders, options.commandTimeoutMs));
        socket.on('error', () => {}); // a late error after we gave up must not crash the process
        socket.terminate();
        reject(error);
      };
      const timedOut = () => new CdpError('timeout', `no WebSocket upgrade within ${handshakeTimeoutMs} ms`, { timeoutMs: handshakeTimeoutMs });
      // ws enforces handshakeTimeout itself; this guard only covers a stall the library would miss.
      const guard = setTimeout(() => settle(timedOut()), handshakeTimeoutMs + 500);
      socket.once('upgrade', (response) => (responseHeaders = response.headers));
      socket.once('open', () => settle(null));
      socket.once('unexpected-response', (request, response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (body.length < REFUSAL_BODY_CHARS) body += chunk;
        });
        const refused = () => {
          const status = response.statusCode ?? 0;
          settle(
            new CdpError('refused', `the WebSocket upgrade was refused with HTTP ${status}`, {
              status,
              statusText: response.statusMessage ?? '',
              body: body.slice(0, REFUSAL_BODY_CHARS),
            }),
          );
          request.destroy();
        };
        response.on('end', refused);
        response.on('error', refused);
      });
      socket.on('error', (error: Error & { code?: string }) => {
        if (/handshake has timed out/i.test(error.message)) settle(timedOut());
        else settle(new CdpError('unreachable', `could not connect: ${error.message}`, { cause: error }));
      });
      socket.once('close', () => settle(new CdpError('unreachable', 'the server closed the connection before the WebSocket upgrade')));
    });
  }

  /** Why the connection ended; null while it is open. */
  get closed(): CdpError | null {
    return this.commands.failed;
  }

  /** Sends a command; `timeoutMs` defaults to the socket's `commandTimeoutMs`. */
  send<M extends CdpMethod>(method: M, params: CdpSendParams<M> = {}, sessionId?: string, timeoutMs = this.commandTimeoutMs): Promise<CdpResult<M>> {
    return this.commands.send(method, params, sessionId, timeoutMs);
  }

  /** Calls `handler` with every `method` event (of any CDP session); returns the unsubscribe. */
  on<E extends CdpEventName>(method: E, handler: CdpEventHandler<E>): () => void {
    let set = this.handlers.get(method);
    if (!set) this.handlers.set(method, (set = new Set()));
    const untyped = handler as CdpEventHandler<CdpEventName>;
    set.add(untyped);
    return () => set.delete(untyped);
  }

  /** Resolves with the event's params, or with null when none arrives in time (or the connection ends first). */
  waitForEvent<E extends CdpEventName>(method: E, options: WaitOptions<E>): Promise<CdpEventParams<E> | null> {
    if (this.closed) return Promise.resolve(null);
    return new Promise((resolve) => {
      const done = (params: CdpEventParams<E> | null) => {
        clearTimeout(timer);
        off();
        this.closeListeners.delete(gone);
        resolve(params);
      };
      const off = this.on(method, (params, sessionId) => {
        if ((options.sessionId === undefined || options.sessionId === sessionId) && (options.match?.(params) ?? true)) done(params);
      });
      const gone = () => done(null);
      this.closeListeners.add(gone);
      const timer = setTimeout(() => done(null), options.timeoutMs);
    });
  }

  /** Calls `listener` once with why the connection ended (at once when it has already ended). */
  onClose(listener: (error: CdpError) => void): void {
    if (this.closed) listener(this.closed);
    else this.closeListeners.add(listener);
  }

  /** Ends the connection: a close frame, and the socket torn down if the other end does not answer it within a second. */
  close(): void {
    this.end(CdpError.closedByUs('the connection was closed by this side'));
    if (this.socket.readyState === WebSocket.OPEN) {
      this.socket.close(1000);
      setTimeout(() => this.socket.terminate(), 1_000).unref();
    } else {
      this.socket.terminate();
    }
  }

  private onMessage(text: string): void {
    const message = parseCdp(text);
    if (!message || this.commands.settle(message) || typeof message.method !== 'string') return;
    for (const handler of this.handlers.get(message.method) ?? []) handler((message.params ?? {}) as CdpEventParams<CdpEventName>, message.sessionId);
  }

  private end(error: CdpError): void {
    if (this.commands.failed) return;
    this.commands.fail(error);
    for (const listener of [...this.closeListeners]) listener(error);
    this.closeListeners.clear();
  }
}
