// The router queue: connections waiting for a slot, oldest first. Waiters hold no slot; the
// engine hands one over (already acquired) when it dispatches a waiter, so nobody can take it
// between the wake-up and the waiter's continuation.

import type { TimerHandle } from './clock';
import type { EngineError } from './errors';
import type { Chain, Reservation } from './reservation';
import type { ProviderConfig } from './types';

export interface Waiter<P extends ProviderConfig> {
  /** Providers this waiter may use; recomputed from `predicate` when the configuration changes. */
  eligible: readonly P[];
  readonly predicate: ((provider: P) => boolean) | undefined;
  readonly enqueuedAt: number;
  /** A connection back in the queue after a full answer: its chain (failures so far) continues. */
  readonly chain?: Chain<P>;
  timer: TimerHandle | null;
  /** Removes the abort listener; set when a signal was given. */
  detach: (() => void) | null;
  resolve(reservation: Reservation<P>): void;
  reject(error: EngineError): void;
}

/** FIFO with removal from the middle (timeouts, aborts). Sizes stay small (queueMaxSize <= 10,000). */
export class WaitQueue<W> {
  private items: W[] = [];

  get length(): number {
    return this.items.length;
  }

  push(item: W): void {
    this.items.push(item);
  }

  /** Inserts before the first item `before` says the new one goes ahead of (else at the end). */
  insert(item: W, before: (queued: W) => boolean): void {
    const i = this.items.findIndex(before);
    if (i === -1) this.items.push(item);
    else this.items.splice(i, 0, item);
  }

  /** Returns false when the item was not queued (already dispatched, timed out or aborted). */
  remove(item: W): boolean {
    const i = this.items.indexOf(item);
    if (i === -1) return false;
    this.items.splice(i, 1);
    return true;
  }

  has(item: W): boolean {
    return this.items.includes(item);
  }

  /** A copy in FIFO order, safe to iterate while the queue changes. */
  snapshot(): W[] {
    return [...this.items];
  }
}
