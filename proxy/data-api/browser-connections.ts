// Provider connections of the data API. One CDP connection (playwright-core `connectOverCDP`) per
// provider is kept open while calls use it and for a short idle time after, so a call pays for a
// new browser context (a few ms) instead of a full connect (and, on vendors that start a browser
// per WebSocket, a browser start). Isolation comes from the context, not the connection: every call
// gets its own `browser.newContext()` — a separate cookie jar, storage, cache and permissions in
// Chromium — which is closed after the call. Nothing of the provider's default context is used.
//
// A connection is dropped when the provider's address or headers change (the fingerprint), when
// the provider leaves its router, when the browser disconnects, and after `idleMs` without calls
// (vendors bill a connected browser; holding it forever would cost the workspace money).
import { createHash } from 'node:crypto';
import { chromium, errors, type Browser, type BrowserContext, type BrowserContextOptions } from 'playwright-core';
import { log } from '../../lib/log';
import { pinnedUrl } from '../../lib/net/egress-connect';
import { EgressRefusedError } from '../../lib/net/egress-policy';
import { outboundAddress } from '../../lib/providers/egress';
import type { RouterRuntime, RuntimeProvider } from '../config/router-store';
import { atCapacityInError } from '../connect/at-capacity';

/**
 * The provider could not give us a browser context: counts as a failed attempt (failover), except
 * `full` (a managed provider at capacity), which the engine skips or waits for without a failure.
 */
export class ConnectError extends Error {
  /** `policy`: the egress policy refuses the provider's address (nothing was dialled). */
  constructor(
    readonly kind: 'timeout' | 'error' | 'full' | 'policy',
    message: string,
  ) {
    super(message);
  }
}

interface Entry {
  routerId: string;
  providerId: string;
  fingerprint: string;
  browser: Promise<Browser>;
  /** Set once the connect resolved: later calls reuse it. */
  connected: Browser | null;
  inUse: number;
  idleTimer: NodeJS.Timeout | null;
  retired: boolean;
}

export interface OpenedContext {
  context: BrowserContext;
  /** Time to a usable context: connect (when one was needed) plus newContext. */
  readyMs: number;
  reused: boolean;
  /** Closes the context and returns the connection to the cache. Idempotent. */
  close(): Promise<void>;
}

const fingerprintOf = (p: RuntimeProvider) =>
  createHash('sha256')
    .update(JSON.stringify([p.url, Object.entries(p.headers).sort()]))
    .digest('hex');

export class BrowserConnections {
  private readonly entries = new Map<string, Entry>();

  /** `idleMs`: DATA_API_IDLE_CONNECTION_MS (lib/config/durations.ts), unless the caller says otherwise. */
  constructor(private readonly idleMs: number) {}

  /** Connections currently held (open or opening); for tests and status. */
  get size(): number {
    return this.entries.size;
  }

  async openContext(
    routerId: string,
    provider: RuntimeProvider,
    options: BrowserContextOptions,
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<OpenedContext> {
    if (!provider.url) throw new ConnectError('error', 'key-based providers are not wired to the data API yet');
    const started = performance.now();
    let entry = this.entryFor(routerId, provider, timeoutMs);
    const reused = entry.connected !== null;
    try {
      return await this.contextOn(entry, options, timeoutMs, signal, started, reused);
    } catch (error) {
      // A cached connection can have died silently (provider restarted): that is not the
      // provider's failure yet. Drop it and try once with a fresh connection.
      if (!reused || signal.aborted || !(error instanceof ConnectError)) throw error;
      log.info({ providerId: provider.id, err: error.message }, 'cached provider connection unusable; reconnecting');
      this.retire(entry);
      entry = this.entryFor(routerId, provider, timeoutMs);
      return this.contextOn(entry, options, timeoutMs, signal, started, false);
    }
  }

  /** Follows router changes: providers that left or changed address lose their connection (all of them when the router was deleted). */
  reconcile(runtime: Pick<RouterRuntime, 'id' | 'providers'>): void {
    const current = new Map(runtime.providers.map((p) => [p.id, fingerprintOf(p)]));
    for (const entry of this.entries.values()) {
      if (entry.routerId === runtime.id && current.get(entry.providerId) !== entry.fingerprint) this.retire(entry);
    }
  }

  async closeAll(): Promise<void> {
    const entries = [...this.entries.values()];
    entries.forEach((e) => this.retire(e));
    await Promise.all(entries.map((e) => e.browser.then((b) => b.close()).catch(() => {})));
  }

  private entryFor(routerId: string, provider: RuntimeProvider, timeoutMs: number): Entry {
    const fingerprint = fingerprintOf(provider);
    const existing = this.entries.get(provider.id);
    if (existing && existing.fingerprint === fingerprint && !existing.retired) return existing;
    if (existing) this.retire(existing);

    const entry: Entry = { routerId, providerId: provider.id, fingerprint, browser: null!, connected: null, inUse: 0, idleTimer: null, retired: false };
    // The provider address under the egress policy (the local pool exempt, and given its token).
    const out = outboundAddress({ url: provider.url!, headers: provider.headers });
    entry.browser = pinnedUrl(out.policy, out.url, out.headers)
      .then((pinned) => chromium.connectOverCDP(pinned.url, { headers: pinned.headers, timeout: timeoutMs }))
      .then(
        (browser) => {
          entry.connected = browser;
          browser.on('disconnected', () => this.forget(entry));
          if (entry.retired && entry.inUse === 0) void browser.close().catch(() => {});
          return browser;
        },
        (error: Error) => {
          this.forget(entry);
          if (error instanceof EgressRefusedError) throw new ConnectError('policy', `refused by the egress policy: ${error.message}`);
          const full = atCapacityInError(error.message);
          if (full) throw new ConnectError('full', `the provider is at capacity (${full})`);
          throw error instanceof errors.TimeoutError
            ? new ConnectError('timeout', `no browser connection within ${timeoutMs} ms`)
            : new ConnectError('error', firstLine(error.message.replace(/^browserType\.connectOverCDP: /, '')));
        },
      );
    entry.browser.catch(() => {}); // observed by every caller; never unhandled
    this.entries.set(provider.id, entry);
    return entry;
  }

  private async contextOn(
    entry: Entry,
    options: BrowserContextOptions,
    timeoutMs: number,
    signal: AbortSignal,
    started: number,
    reused: boolean,
  ): Promise<OpenedContext> {
    entry.inUse++;
    if (entry.idleTimer) clearTimeout(entry.idleTimer);
    entry.idleTimer = null;
    let closed = false;
    const done = () => {
      if (closed) return;
      closed = true;
      this.returned(entry);
    };
    try {
      const browser = await within(entry.browser, timeoutMs, signal, `no browser connection within ${timeoutMs} ms`);
      const pending = browser.newContext(options);
      const context = await within(pending, timeoutMs, signal, `no new browser context within ${timeoutMs} ms`).catch((error: unknown) => {
        // A context that arrives after we gave up must not stay open on the provider.
        void pending.then((late) => late.close()).catch(() => {});
        if (error instanceof ConnectError || signal.aborted) throw error;
        throw new ConnectError('error', `could not open a browser context: ${firstLine((error as Error).message)}`);
      });
      let closing: Promise<void> | null = null;
      return {
        context,
        reused,
        readyMs: performance.now() - started,
        close: () =>
          (closing ??= context
            .close()
            .catch(() => {})
            .finally(done)),
      };
    } catch (error) {
      done();
      throw error;
    }
  }

  private returned(entry: Entry): void {
    entry.inUse--;
    if (entry.inUse > 0) return;
    if (entry.retired) {
      void entry.browser.then((b) => b.close()).catch(() => {});
      return;
    }
    entry.idleTimer = setTimeout(() => this.retire(entry), this.idleMs);
    entry.idleTimer.unref();
  }

  /** No new calls on this connection; it closes when its last call returns. */
  private retire(entry: Entry): void {
    if (entry.retired) return;
    entry.retired = true;
    if (entry.idleTimer) clearTimeout(entry.idleTimer);
    this.forget(entry);
    if (entry.inUse === 0) void entry.browser.then((b) => b.close()).catch(() => {});
  }

  private forget(entry: Entry): void {
    if (this.entries.get(entry.providerId) === entry) this.entries.delete(entry.providerId);
    entry.retired = true;
  }
}

/** Awaits `promise` for at most `ms`, or until `signal` aborts (rejecting with its reason). */
function within<T>(promise: Promise<T>, ms: number, signal: AbortSignal, timeoutMessage: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => finish(() => reject(new ConnectError('timeout', timeoutMessage))), ms);
    const onAbort = () => finish(() => reject(signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      settle();
    };
    promise.then(
      (v) => finish(() => resolve(v)),
      (e) => finish(() => reject(e)),
    );
  });
}

export const firstLine = (message: string) => (message.split('\n')[0] ?? '').slice(0, 300);
