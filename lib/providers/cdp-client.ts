// A minimal CDP client over one WebSocket, enough to test and probe a provider. Every wait has a
// deadline: a provider that accepts TCP but never upgrades, refuses, or answers the upgrade with
// an HTTP error fails with a worded reason instead of hanging the request.
import WebSocket from 'ws';
import { CdpCommands, parseCdp } from '../cdp/commands';
import type { CdpEventName, CdpEventParams, CdpMethod, CdpResult, CdpSendParams } from '../cdp/protocol';
import { pinnedLookup } from '../net/egress-connect';
import { checkUrl, type EgressPolicy } from '../net/egress-policy';
import { hostOf, type ProviderHeaders } from './address';
import { ProviderCheckError } from './check-errors';

interface EventWaiter {
  method: string;
  sessionId: string | undefined;
  match: (params: unknown) => boolean;
  resolve: (params: unknown) => void;
}

export interface SendOptions {
  sessionId?: string;
  timeoutMs: number;
}

export interface WaitOptions<E extends CdpEventName> extends SendOptions {
  /** Only an event whose params pass this ends the wait. */
  match?: (params: CdpEventParams<E>) => boolean;
}

export class CdpConnection {
  private readonly commands: CdpCommands;
  private waiters: EventWaiter[] = [];

  constructor(private readonly socket: WebSocket, private readonly host: string) {
    this.commands = new CdpCommands((text) => socket.send(text), {
      answeredError: (method, detail) => new ProviderCheckError(`${method} failed: ${detail ?? 'error'}`),
      timedOut: (method, ms) => new ProviderCheckError(`no answer to ${method} from ${host} within ${ms} ms`),
    });
    socket.on('message', (data) => this.onMessage(data.toString()));
    socket.on('close', (code) => this.commands.fail(new ProviderCheckError(`${host} closed the CDP connection (code ${code})`)));
    socket.on('error', (error) => this.commands.fail(new ProviderCheckError(`CDP connection to ${host} failed: ${error.message}`)));
  }

  send<M extends CdpMethod>(method: M, params: CdpSendParams<M>, options: SendOptions): Promise<CdpResult<M>> {
    return this.commands.send(method, params, options.sessionId, options.timeoutMs);
  }

  /** Resolves with the event's params, or with null when none arrives in time. */
  waitForEvent<E extends CdpEventName>(method: E, options: WaitOptions<E>): Promise<CdpEventParams<E> | null> {
    return new Promise((resolve) => {
      const match = (params: unknown) => options.match?.(params as CdpEventParams<E>) ?? true;
      const waiter: EventWaiter = { method, sessionId: options.sessionId, match, resolve: (params) => { clearTimeout(timer); resolve(params as CdpEventParams<E>); } };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(null);
      }, options.timeoutMs);
      this.waiters.push(waiter);
    });
  }

  close(): void {
    this.commands.fail(new ProviderCheckError('closed by us'));
    if (this.socket.readyState === WebSocket.OPEN) {
      this.socket.close(1000);
      setTimeout(() => this.socket.terminate(), 1_000).unref();
    } else {
      this.socket.terminate();
    }
  }

  private onMessage(text: string): void {
    const message = parseCdp(text);
    if (!message || this.commands.settle(message) || !message.method) return;
    const params = message.params ?? {};
    const index = this.waiters.findIndex((w) => w.method === message.method && (w.sessionId === undefined || w.sessionId === message.sessionId) && w.match(params));
    if (index >= 0) this.waiters.splice(index, 1)[0]!.resolve(params);
  }
}

/**
 * Opens the WebSocket with the provider's headers. `handshakeTimeoutMs` runs until the provider's
 * `101 Switching Protocols`, not until TCP connect (as the router's connectionTimeoutMs does).
 */
/** `reportedTimeoutMs` is the timeout named in a failure (the router's), when the budget left is less. */
export async function connectCdp(url: string, headers: ProviderHeaders, handshakeTimeoutMs: number, reportedTimeoutMs: number, policy: EgressPolicy): Promise<CdpConnection> {
  const host = hostOf(url);
  let lookup: ReturnType<typeof pinnedLookup>;
  try {
    // Resolved and checked once; the WebSocket connects to that address (no DNS rebinding).
    lookup = pinnedLookup(await checkUrl(policy, url));
  } catch (error) {
    throw ProviderCheckError.fromNetwork(error, host, handshakeTimeoutMs, 'WebSocket upgrade');
  }
  return new Promise((resolve, reject) => {
    let settled = false;
    const socket = new WebSocket(url, { headers, handshakeTimeout: handshakeTimeoutMs, perMessageDeflate: false, followRedirects: false, maxPayload: 64 * 1024 * 1024, lookup });
    const settle = (error: ProviderCheckError | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(guard);
      if (error) {
        socket.removeAllListeners();
        socket.on('error', () => {}); // a late error after we gave up must not crash the process
        socket.terminate();
        reject(error);
      } else {
        socket.removeAllListeners();
        resolve(new CdpConnection(socket, host));
      }
    };
    const timeoutError = () => new ProviderCheckError(`no WebSocket upgrade from ${host} within ${reportedTimeoutMs} ms`);
    // ws enforces handshakeTimeout itself; this guard only covers a stall the library would miss.
    const guard = setTimeout(() => settle(timeoutError()), handshakeTimeoutMs + 500);
    socket.once('open', () => settle(null));
    socket.once('unexpected-response', (request, response) => {
      response.resume();
      request.destroy();
      settle(new ProviderCheckError(`${host} refused the WebSocket upgrade with HTTP ${response.statusCode}${response.statusCode === 401 || response.statusCode === 403 ? ' (check the address token or headers)' : ''}`));
    });
    socket.on('error', (error: Error & { code?: string }) => {
      if (/handshake has timed out/i.test(error.message)) settle(timeoutError());
      else settle(ProviderCheckError.fromNetwork(error, host, handshakeTimeoutMs, 'WebSocket upgrade'));
    });
    socket.once('close', () => settle(new ProviderCheckError(`${host} closed the connection before the WebSocket upgrade`)));
  });
}
