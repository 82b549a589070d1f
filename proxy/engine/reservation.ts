// What acquire() hands out: one slot on one provider for the duration of a connection attempt,
// then (on success) for the session.

import type { Attempt, ProviderConfig } from './types';

/** The failover chain of one connection, shared by the reservations it produces. */
export interface Chain<P extends ProviderConfig> {
  /** Strategy order at the time of the first pick; failover walks the rest of it. */
  readonly order: readonly P[];
  readonly tried: Set<string>;
  readonly attempts: Attempt[];
  /** Pinned connections never fail over. */
  readonly pinned: boolean;
  /** Time the connection spent queued before its first reservation. */
  readonly waitedMs: number;
  /** The connection's eligibility rule, re-checked against the current configuration on failover. */
  readonly predicate: ((provider: P) => boolean) | undefined;
  /** When the connection first entered the queue (its queue deadline counts from there). */
  readonly queuedAt?: number;
  /**
   * Per provider tried, how many freed slots had been announced (capacityFreed) when this
   * connection's slot was taken: a "full" answer then knows how many were announced meanwhile.
   */
  readonly announcedAt: Map<string, number>;
}

/** The engine side of a reservation; kept narrow so this file does not depend on the engine. */
export interface ReservationHost<P extends ProviderConfig> {
  recordSuccess(provider: P, connectMs: number): void;
  failover(chain: Chain<P>, provider: P, reason: string, untilReset: boolean): Reservation<P> | null;
  skip(chain: Chain<P>, provider: P): Reservation<P> | null;
  full(chain: Chain<P>, provider: P, signal: AbortSignal | undefined): Promise<Reservation<P>>;
  releaseSlot(provider: P): void;
}

/** Holds one slot for a running session until release() (idempotent). */
export class Lease<P extends ProviderConfig = ProviderConfig> {
  private released = false;

  constructor(
    readonly provider: P,
    private readonly host: ReservationHost<P>,
  ) {}

  get isReleased(): boolean {
    return this.released;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.host.releaseSlot(this.provider);
  }
}

/**
 * Exactly one of succeed / fail / full / cancel settles a reservation. cancel() after settling is a
 * no-op so cleanup paths can call it unconditionally; a second succeed or fail is a bug in the
 * caller and throws rather than double-counting an outcome.
 *
 * Once acquire() has resolved, the caller owns the reservation: an AbortSignal that fires later
 * does not release it — call cancel().
 */
export class Reservation<P extends ProviderConfig = ProviderConfig> {
  private settled = false;

  constructor(
    readonly provider: P,
    private readonly chain: Chain<P>,
    private readonly host: ReservationHost<P>,
  ) {}

  /** Failed attempts of this connection so far, in order (the last one included after fail()). */
  get attempts(): readonly Attempt[] {
    return this.chain.attempts;
  }

  /** How long the connection waited in the queue before its first provider. */
  get waitedMs(): number {
    return this.chain.waitedMs;
  }

  get isSettled(): boolean {
    return this.settled;
  }

  /** The provider answered 101: record the latency sample and keep the slot for the session. */
  succeed(connectMs: number): Lease<P> {
    this.settle('succeed');
    this.host.recordSuccess(this.provider, connectMs);
    return new Lease(this.provider, this.host);
  }

  /**
   * The attempt failed (refused, timed out, upgrade rejected): counts towards cooldown, frees the
   * slot, and returns a reservation on the next provider of the order that is free and not cooling
   * right now, or null when the chain is exhausted (then `attempts` lists every failure).
   * `untilReset`: a failure that lasts until the provider's address changes (the egress policy
   * refuses it): the provider is out of the rotation until then, as after a failed health check.
   */
  fail(reason: string, options: { untilReset?: boolean } = {}): Reservation<P> | null {
    this.settle('fail');
    this.chain.attempts.push({ providerId: this.provider.id, slug: this.provider.slug, reason });
    return this.host.failover(this.chain, this.provider, reason, options.untilReset === true);
  }

  /**
   * The provider works but cannot take this connection (a browser holding another profile's state):
   * no outcome for cooldown, the slot freed, the attempt listed; the next provider of the order, or
   * null when the chain is exhausted.
   */
  skip(reason: string): Reservation<P> | null {
    this.settle('skip');
    this.chain.attempts.push({ providerId: this.provider.id, slug: this.provider.slug, reason });
    return this.host.skip(this.chain, this.provider);
  }

  /**
   * The provider answered that it is at capacity (a managed provider's "full"): not a failure. No
   * outcome is recorded (no cooldown), the slot is freed, and the provider is left out until a
   * slot frees on it, a capacity report says it has room, or FULL_RETRY_MS passes. Resolves with
   * a reservation on the next free provider of the order, or, when none is free, after waiting in
   * the router queue like any connection that found everything full: it rejects as acquire() would
   * (queue_timeout, queue_full, no_free_provider, aborted, config_changed, closed), its queue
   * deadline counted from when it first queued. Providers that failed in this chain stay out; the
   * full one may be tried again. A pinned connection never waits: pinned_unavailable (full).
   */
  full(options: { signal?: AbortSignal } = {}): Promise<Reservation<P>> {
    this.settle('full');
    return this.host.full(this.chain, this.provider, options.signal);
  }

  /** The client left before the session started: free the slot without recording an outcome. */
  cancel(): void {
    if (this.settled) return;
    this.settled = true;
    this.host.releaseSlot(this.provider);
  }

  private settle(action: string): void {
    if (this.settled) throw new Error(`reservation on ${this.provider.slug} already settled (${action})`);
    this.settled = true;
  }
}
