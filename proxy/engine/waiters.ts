// The connections waiting in one router's queue (queue.ts keeps them in order): each put in with
// its deadline and its abort, free slots handed to them oldest first whenever capacity frees, and
// each settled exactly once, with a reservation or with the error that ends its wait. The engine
// (engine.ts) decides who may wait and what a waiter can be given.
import type { Clock } from './clock';
import { EngineError, type BlockReason } from './errors';
import { WaitQueue, type Waiter } from './queue';
import type { Chain, Reservation } from './reservation';
import type { ProviderConfig } from './types';

/** What the waiters ask of their engine. */
export interface WaitersHost<P extends ProviderConfig> {
  readonly clock: Clock;
  queueTimeoutMs(): number;
  /** Whether any configured provider could take a connection now. */
  anyAvailable(): boolean;
  /** Whether one of these providers could take a connection now. */
  someAvailable(eligible: readonly P[]): boolean;
  /** A reservation (its slot taken) on one of the waiter's providers, or null when none is free. */
  dispatch(waiter: Waiter<P>, waitedMs: number): Reservation<P> | null;
  /** Why these providers cannot take a connection: all full, or none routable. */
  blockReason(eligible: readonly P[]): BlockReason;
}

export class Waiters<P extends ProviderConfig> {
  private readonly queue = new WaitQueue<Waiter<P>>();
  private draining = false;
  private drainAgain = false;

  constructor(private readonly host: WaitersHost<P>) {}

  get length(): number {
    return this.queue.length;
  }

  snapshot(): readonly Waiter<P>[] {
    return this.queue.snapshot();
  }

  waited(w: Waiter<P>): number {
    return this.host.clock.now() - w.enqueuedAt;
  }

  /**
   * Queues a connection. `chain` is set for one back after a full answer: it keeps the time it
   * first queued (its deadline counts from there, so repeated full answers cannot keep it waiting
   * past the queue timeout) and its place among the waiters by that time.
   */
  enqueue(eligible: readonly P[], options: { eligible?: (p: P) => boolean; signal?: AbortSignal }, chain?: Chain<P>): Promise<Reservation<P>> {
    return new Promise<Reservation<P>>((resolve, reject) => {
      const now = this.host.clock.now();
      const waiter: Waiter<P> = {
        eligible,
        predicate: options.eligible,
        enqueuedAt: chain?.queuedAt ?? now,
        chain,
        timer: null,
        detach: null,
        resolve,
        reject,
      };
      waiter.timer = this.host.clock.setTimer(() => this.onTimeout(waiter), Math.max(0, waiter.enqueuedAt + this.host.queueTimeoutMs() - now));
      const signal = options.signal;
      if (signal) {
        const onAbort = () => this.finish(waiter, new EngineError('aborted', { waitedMs: this.waited(waiter) }));
        signal.addEventListener('abort', onAbort, { once: true });
        waiter.detach = () => signal.removeEventListener('abort', onAbort);
      }
      this.queue.insert(waiter, (queued) => queued.enqueuedAt > waiter.enqueuedAt);
    });
  }

  private onTimeout(waiter: Waiter<P>): void {
    waiter.timer = null;
    // A slot that is usable at this very instant still goes to the waiter rather than a 429.
    this.drain();
    if (!this.queue.has(waiter)) return;
    const reason = this.host.blockReason(waiter.eligible);
    this.finish(waiter, new EngineError('queue_timeout', { waitedMs: this.waited(waiter), reason }));
  }

  /** Settles a queued waiter exactly once, leaving no timer or listener behind. */
  finish(waiter: Waiter<P>, outcome: Reservation<P> | EngineError): void {
    if (!this.queue.remove(waiter)) return;
    if (waiter.timer) this.host.clock.clearTimer(waiter.timer);
    waiter.timer = null;
    waiter.detach?.();
    if (outcome instanceof EngineError) waiter.reject(outcome);
    else waiter.resolve(outcome);
  }

  /**
   * Hands free slots to waiters in FIFO order: each waiter gets the strategy's pick among its own
   * eligible providers, so a later waiter is served first only when the earlier ones cannot use
   * anything that is free. Runs after every event that can free capacity.
   */
  drain(): void {
    if (this.draining) {
      this.drainAgain = true;
      return;
    }
    this.draining = true;
    try {
      do {
        this.drainAgain = false;
        for (const w of this.queue.snapshot()) {
          if (!this.host.anyAvailable()) break;
          if (!this.host.someAvailable(w.eligible)) continue;
          const reservation = this.host.dispatch(w, this.waited(w));
          if (reservation) this.finish(w, reservation);
        }
      } while (this.drainAgain);
    } finally {
      this.draining = false;
    }
  }
}
