// The agent toolkit's CDP connection: one WebSocket to a browser, commands with deadlines, events
// by method and CDP session (flat mode: a tab's commands carry its `sessionId`). It is the client
// end of a session like any Playwright script, so nothing here is special to our proxy.
import WebSocket from 'ws';
import { CdpCommands, parseCdp } from '../../lib/cdp/commands';
import type { CdpEventName, CdpEventParams, CdpMethod, CdpResult, CdpSendParams } from '../../lib/cdp/protocol';
import { AgentError } from './types';

// Commands, answers and events are typed from the protocol (lib/cdp/protocol.ts).
export type EventHandler<E extends CdpEventName> = (params: CdpEventParams<E>, sessionId: string | undefined) => void;

/** The default deadline of a command: a browser that answers nothing for this long is stuck. */
export const COMMAND_TIMEOUT_MS = 30_000;

export class CdpConnection {
  private readonly commands: CdpCommands;
  private readonly handlers = new Map<string, Set<EventHandler<CdpEventName>>>();
  private closedReason: string | null = null;
  private readonly closeListeners = new Set<(reason: string) => void>();
  /** Response headers of the WebSocket handshake (the proxy's X-Session-Id). */
  readonly headers: Record<string, string | string[] | undefined>;

  private constructor(private readonly socket: WebSocket, headers: Record<string, string | string[] | undefined>) {
    this.headers = headers;
    this.commands = new CdpCommands((text) => socket.send(text), {
      answeredError: (method, detail) => new CdpError(method, detail ?? 'unknown error'),
      timedOut: (method, ms) => new AgentError('timeout', `the browser did not answer ${method} within ${Math.round(ms / 1000)} s`),
    });
    socket.on('message', (data) => this.onMessage(data.toString()));
    socket.on('close', (code, reason) => this.fail(closeWords(code, reason.toString())));
    socket.on('error', (error) => this.fail(`the browser connection failed: ${error.message}`));
  }

  /** Opens the WebSocket; a refusal (an HTTP status before the upgrade) is reported with its text. */
  static open(url: string, headers: Record<string, string> = {}, timeoutMs = 120_000): Promise<CdpConnection> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { headers, perMessageDeflate: false, maxPayload: 256 * 1024 * 1024, handshakeTimeout: timeoutMs });
      let responseHeaders: Record<string, string | string[] | undefined> = {};
      socket.once('upgrade', (res) => (responseHeaders = res.headers));
      socket.once('open', () => resolve(new CdpConnection(socket, responseHeaders)));
      socket.once('unexpected-response', (_req, res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => { if (body.length < 2_000) body += chunk; });
        res.on('end', () => {
          socket.terminate();
          reject(new AgentError('browser', `no browser could be opened: ${res.statusCode} ${body.trim() || res.statusMessage}`));
        });
      });
      socket.once('error', (error) => reject(new AgentError('browser', `no browser could be opened: ${error.message}`)));
    });
  }

  get closed(): boolean {
    return this.closedReason !== null;
  }

  send<M extends CdpMethod>(method: M, params: CdpSendParams<M> = {}, sessionId?: string, timeoutMs = COMMAND_TIMEOUT_MS): Promise<CdpResult<M>> {
    return this.commands.send(method, params, sessionId, timeoutMs);
  }

  on<E extends CdpEventName>(method: E, handler: EventHandler<E>): () => void {
    let set = this.handlers.get(method);
    if (!set) this.handlers.set(method, (set = new Set()));
    const untyped = handler as EventHandler<CdpEventName>;
    set.add(untyped);
    return () => set.delete(untyped);
  }

  onClose(listener: (reason: string) => void): void {
    if (this.closedReason) listener(this.closedReason);
    else this.closeListeners.add(listener);
  }

  close(): void {
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING) this.socket.close(1000);
    this.fail('the session was closed');
  }

  private onMessage(text: string): void {
    const message = parseCdp(text);
    if (!message || this.commands.settle(message) || typeof message.method !== 'string') return;
    for (const handler of this.handlers.get(message.method) ?? []) handler((message.params ?? {}) as CdpEventParams<CdpEventName>, message.sessionId);
  }

  private fail(reason: string): void {
    if (this.closedReason) return;
    this.closedReason = reason;
    this.commands.fail(new AgentError('closed', reason));
    for (const listener of this.closeListeners) listener(reason);
    this.closeListeners.clear();
  }
}

/** A command the browser answered with an error. */
export class CdpError extends Error {
  constructor(readonly method: string, readonly detail: string) {
    super(`${method}: ${detail}`);
  }
}

/**
 * Close codes a router or gateway ends a session with (docs/connect.md, "When the proxy ends a
 * session"), each with what it means when the frame carries no reason.
 */
const SERVICE_CLOSES: Readonly<Record<number, string>> = {
  4000: 'a member of the workspace closed it',
  4001: 'its router key was revoked',
  4002: 'its router key was rotated',
  4003: 'the workspace was marked for deletion',
  4004: 'the workspace was suspended',
  4005: 'the chat link was rotated or deleted',
  4008: 'it was idle for the router\'s idle timeout (the router\'s sessionIdleTimeoutMs, Settings > Routing > Idle timeout)',
  4009: 'it reached the 4-hour limit of a session',
  1001: 'the server it went through is shutting down',
  1011: 'its browser failed (its provider closed with an error, or vanished)',
};

/**
 * Why the browser's WebSocket closed, as the model reads it. A router or gateway that ends a session
 * names the cause and what controls it in the close frame's reason (proxy/sessions/close-reasons.ts):
 * it is passed on whole, so the model can tell the user which setting to change.
 */
export function closeWords(code: number, reason: string): string {
  const service = SERVICE_CLOSES[code];
  if (service !== undefined) return `the browser session ended: ${reason || service}`;
  if (reason) return `the browser session ended (${code}: ${reason})`;
  return code === 1000 || code === 1005 ? 'the browser session ended' : `the browser connection closed (${code})`;
}
