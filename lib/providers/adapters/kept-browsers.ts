// Vendor browsers kept after their session ended so that a reconnect reuses them (adapter-one keeps
// them 15 minutes, then stops them). In-memory, per proxy process: see docs/decisions-providers.md.
import { constantTimeEqual } from '../../crypto/secrets';
import { log } from '../../log';
import type { SessionRef, Timers } from './types';

interface Kept {
  apiKey: string;
  session: SessionRef;
  until: number;
  timer: unknown;
}

export class KeptBrowsers {
  private readonly kept = new Map<string, Kept>();
  private readonly stopping = new Set<Promise<void>>();

  constructor(
    private readonly timers: Timers,
    private readonly keepMs: number,
    private readonly stop: (apiKey: string, vendorSessionId: string) => Promise<void>,
  ) {}

  /** Keeps the browser under its reuse key; returns the Unix ms at which it will be stopped. */
  keep(apiKey: string, session: SessionRef): number {
    const key = session.reuseKey ?? session.vendorSessionId;
    const previous = this.kept.get(key);
    if (previous && previous.session.vendorSessionId !== session.vendorSessionId) this.expire(key, previous);
    if (previous) this.timers.clearTimer(previous.timer);
    const until = this.timers.now() + this.keepMs;
    const entry: Kept = { apiKey, session, until, timer: null };
    entry.timer = this.timers.setTimer(() => this.expire(key, entry), this.keepMs);
    this.kept.set(key, entry);
    return until;
  }

  /** Hands a kept browser back (and cancels its stop) when the same key asks for it. */
  take(apiKey: string, reuseKey: string): SessionRef | null {
    const entry = this.kept.get(reuseKey);
    if (!entry || !constantTimeEqual(entry.apiKey, apiKey)) return null;
    this.timers.clearTimer(entry.timer);
    this.kept.delete(reuseKey);
    return entry.session;
  }

  get size(): number {
    return this.kept.size;
  }

  /** Resolves once every stop already under way has finished. */
  async idle(): Promise<void> {
    while (this.stopping.size > 0) await Promise.all([...this.stopping]);
  }

  async stopAll(): Promise<void> {
    const entries = [...this.kept.entries()];
    this.kept.clear();
    await Promise.all(
      entries.map(async ([, entry]) => {
        this.timers.clearTimer(entry.timer);
        await this.stopQuietly(entry);
      }),
    );
  }

  private expire(key: string, entry: Kept): void {
    if (this.kept.get(key) === entry) this.kept.delete(key);
    this.timers.clearTimer(entry.timer);
    void this.stopQuietly(entry);
  }

  private stopQuietly(entry: Kept): Promise<void> {
    const done = this.stop(entry.apiKey, entry.session.vendorSessionId)
      .catch((error: Error) => log.warn({ vendorSessionId: entry.session.vendorSessionId, err: error.message }, 'could not stop a kept vendor browser'))
      .finally(() => this.stopping.delete(done));
    this.stopping.add(done);
    return done;
  }
}
