// Pipeline lane: a message-level relay with plugins (profiles, recording, traces, agent tools
// plug in here). Injected commands use ids from their own range and their replies never reach
// the client. Backpressure: when one side's send buffer passes the high-water mark, the other
// side's socket is paused until it drains; no message is ever dropped.
import type { WebSocket } from 'ws';
import type { Relay, RelayOutcome, RelayStats } from './types';

export interface CdpMessage {
  id?: number;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
  sessionId?: string;
}

export interface PluginContext {
  sessionId: string;
  /** Sends a command on behalf of the service; its reply is delivered here, never to the client. */
  send(method: string, params?: unknown, cdpSessionId?: string): Promise<unknown>;
}

export interface PipelinePlugin {
  name: string;
  onStart?(ctx: PluginContext): void | Promise<void>;
  /** A command from the client. Return 'drop' to keep it from the provider. */
  onClientMessage?(message: CdpMessage, ctx: PluginContext): void | 'drop';
  /** A response or event from the provider. Return 'drop' to keep it from the client. */
  onProviderMessage?(message: CdpMessage, ctx: PluginContext): void | 'drop';
  onEnd?(outcome: RelayOutcome, ctx: PluginContext): void | Promise<void>;
}

export const INJECTED_ID_BASE = 2_000_000_000;
const HIGH_WATER = 4 * 1024 * 1024;

type Raw = Buffer | ArrayBuffer | Buffer[];
const size = (data: Raw) => (Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : data.byteLength);
const text = (data: Raw) => (Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer)).toString('utf8');

export class PipelineLane implements Relay {
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private nextId = INJECTED_ID_BASE;
  private counters = { bytesIn: 0, bytesOut: 0, messages: 0, lastActivity: Date.now() };
  private ended = false;
  private closing: RelayOutcome | null = null;
  private readonly ctx: PluginContext;
  private readonly parse: boolean;

  constructor(
    private readonly client: WebSocket,
    private readonly upstream: WebSocket,
    sessionId: string,
    private readonly plugins: PipelinePlugin[],
    private readonly onEnd: (outcome: RelayOutcome) => void,
  ) {
    this.parse = plugins.some((p) => p.onClientMessage || p.onProviderMessage);
    this.ctx = { sessionId, send: (method, params, cdpSessionId) => this.inject(method, params, cdpSessionId) };
    client.on('message', (data: Raw, isBinary: boolean) => this.fromClient(data, isBinary));
    upstream.on('message', (data: Raw, isBinary: boolean) => this.fromProvider(data, isBinary));
    client.on('close', () => this.finish({ state: 'closed', reason: null }));
    upstream.on('close', (code: number) => this.finish(code === 1000 || code === 1005 ? { state: 'closed', reason: null } : { state: 'errored', reason: `the provider closed the WebSocket (${code})` }));
    client.on('error', () => this.finish({ state: 'closed', reason: null }));
    upstream.on('error', () => this.finish({ state: 'errored', reason: 'provider connection error' }));
    for (const plugin of plugins) void Promise.resolve(plugin.onStart?.(this.ctx)).catch(() => {});
  }

  get stats(): RelayStats {
    return { ...this.counters };
  }

  private inject(method: string, params?: unknown, cdpSessionId?: string): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.upstream.send(JSON.stringify({ id, method, params: params ?? {}, ...(cdpSessionId ? { sessionId: cdpSessionId } : {}) }));
    });
  }

  private fromClient(data: Raw, isBinary: boolean): void {
    this.counters.bytesIn += size(data);
    this.counters.messages++;
    this.counters.lastActivity = Date.now();
    if (this.parse && !isBinary) {
      const message = JSON.parse(text(data)) as CdpMessage;
      for (const plugin of this.plugins) if (plugin.onClientMessage?.(message, this.ctx) === 'drop') return;
    }
    this.forward(this.upstream, this.client, data, isBinary);
  }

  private fromProvider(data: Raw, isBinary: boolean): void {
    this.counters.lastActivity = Date.now();
    let message: CdpMessage | undefined;
    if (!isBinary && (this.parse || this.pending.size > 0)) {
      message = JSON.parse(text(data)) as CdpMessage;
      if (message.id !== undefined && message.id >= INJECTED_ID_BASE) {
        const waiter = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.error) waiter?.reject(new Error(message.error.message));
        else waiter?.resolve(message.result);
        return;
      }
      for (const plugin of this.plugins) if (plugin.onProviderMessage?.(message, this.ctx) === 'drop') return;
    }
    this.counters.bytesOut += size(data);
    this.counters.messages++;
    this.forward(this.client, this.upstream, data, isBinary);
  }

  private forward(to: WebSocket, from: WebSocket, data: Raw, isBinary: boolean): void {
    to.send(Array.isArray(data) ? Buffer.concat(data) : data, { binary: isBinary });
    const source = (from as unknown as { _socket?: import('node:net').Socket })._socket;
    const sink = (to as unknown as { _socket?: import('node:net').Socket })._socket;
    if (to.bufferedAmount > HIGH_WATER && source && sink && !source.isPaused()) {
      source.pause();
      sink.once('drain', () => source.resume());
    }
  }

  close(code: number, reason: string, outcome: RelayOutcome): void {
    if (this.ended || this.closing) return;
    this.closing = outcome;
    this.client.close(code, reason);
    this.upstream.terminate();
    setTimeout(() => this.client.terminate(), 1_000).unref();
  }

  private finish(outcome: RelayOutcome): void {
    if (this.ended) return;
    this.ended = true;
    for (const waiter of this.pending.values()) waiter.reject(new Error('session ended'));
    this.pending.clear();
    if (this.client.readyState === this.client.OPEN) this.client.close(1000);
    this.upstream.terminate();
    const final = this.closing ?? outcome;
    for (const plugin of this.plugins) void Promise.resolve(plugin.onEnd?.(final, this.ctx)).catch(() => {});
    this.onEnd(final);
  }
}
