// The failover chain of one router's connections: the first pick from the strategy order (or a
// pinned provider), and what each settled reservation leads to: a success recorded, a failure
// counted towards cooldown, a skip, a full answer, each followed by the next free provider of
// the chain or, after a full answer, the queue. The engine (engine.ts) owns the providers, the
// order and the queue; this is the engine side of every reservation (reservation.ts).
import type { Clock } from './clock';
import { EngineError } from './errors';
import type { ProviderStates } from './provider-states';
import { Reservation, type Chain, type ReservationHost } from './reservation';
import type { AcquireOptions, ProviderConfig } from './types';

/** What the chains ask of their engine. */
export interface ChainsHost<P extends ProviderConfig> {
  readonly clock: Clock;
  readonly states: ProviderStates;
  /** The strategy's order of these providers right now. */
  order(eligible: readonly P[]): readonly P[];
  /** The provider's current configuration, or undefined when it is no longer configured. */
  provider(id: string): P | undefined;
  isAvailable(provider: P): boolean;
  closed(): boolean;
  /** Capacity changed: the queue is served first. */
  drain(): void;
  /** Providers a (re)queued connection may wait for: its eligibility, minus those that failed on its chain. */
  eligibleFor(predicate: ((p: P) => boolean) | undefined, chain: Chain<P> | undefined): readonly P[];
  /** Queues the connection, or refuses it at once. */
  waitOrRefuse(eligible: readonly P[], options: AcquireOptions<P>, chain?: Chain<P>): Promise<Reservation<P>>;
}

export class FailoverChains<P extends ProviderConfig> implements ReservationHost<P> {
  constructor(private readonly host: ChainsHost<P>) {}

  /** A reservation on a pinned provider whose slot the caller has taken: its chain never fails over. */
  pinned(provider: P, predicate: ((p: P) => boolean) | undefined): Reservation<P> {
    const providerId = provider.id;
    const chain: Chain<P> = { order: [provider], tried: new Set([providerId]), attempts: [], pinned: true, waitedMs: 0, predicate, announcedAt: new Map() };
    chain.announcedAt.set(providerId, this.host.states.announcedCount(providerId));
    return new Reservation(provider, chain, this);
  }

  /**
   * Takes a slot on the first available provider of the strategy order, or returns null. A
   * waiter back after a full answer continues its chain (its failures so far stay out).
   */
  dispatch(
    eligible: readonly P[],
    predicate: ((p: P) => boolean) | undefined,
    waitedMs: number,
    queuedAt?: number,
    previous?: Chain<P>,
  ): Reservation<P> | null {
    const states = this.host.states;
    const order = this.host.order(eligible);
    for (const provider of order) {
      if (!this.host.isAvailable(provider) || !states.take(provider)) continue;
      const tried = previous?.tried ?? new Set<string>();
      tried.add(provider.id);
      const chain: Chain<P> = {
        order,
        tried,
        attempts: previous?.attempts ?? [],
        pinned: false,
        waitedMs,
        predicate,
        queuedAt,
        announcedAt: previous?.announcedAt ?? new Map(),
      };
      chain.announcedAt.set(provider.id, states.announcedCount(provider.id));
      return new Reservation(provider, chain, this);
    }
    return null;
  }

  recordSuccess(provider: P, connectMs: number): void {
    if (this.host.provider(provider.id)) this.host.states.recordSuccess(provider.id, connectMs);
  }

  releaseSlot(provider: P): void {
    this.host.states.releaseEnded(provider.id);
  }

  skip(chain: Chain<P>, skipped: P): Reservation<P> | null {
    this.host.states.releaseAttempt(skipped.id);
    this.host.drain();
    return chain.pinned || this.host.closed() ? null : this.nextInChain(chain);
  }

  failover(chain: Chain<P>, failed: P, reason: string, untilReset: boolean): Reservation<P> | null {
    const states = this.host.states;
    const cooldownMs = this.host.provider(failed.id) ? states.recordFailure(failed.id, reason, untilReset) : null;
    states.releaseAttempt(failed.id);
    this.host.drain();
    const next = chain.pinned || this.host.closed() ? null : this.nextInChain(chain);
    if (cooldownMs !== null) states.emitCooldown(failed.id, cooldownMs);
    return next;
  }

  /**
   * A full answer: no outcome for cooldown, the slot back, the provider left out for now; then the
   * next free provider of the chain, or the queue (Reservation.full).
   */
  full(chain: Chain<P>, full: P, signal: AbortSignal | undefined): Promise<Reservation<P>> {
    const states = this.host.states;
    states.releaseAttempt(full.id);
    // Slots announced freed while this attempt was under way are still to be tried.
    const meanwhile = states.announcedCount(full.id) - (chain.announcedAt.get(full.id) ?? Number.MAX_SAFE_INTEGER);
    if (this.host.provider(full.id)) states.markFull(full.id, meanwhile);
    // Not used up for this connection: it may be tried again once it has room.
    chain.tried.delete(full.id);
    this.host.drain();
    if (chain.pinned) return Promise.reject(new EngineError('pinned_unavailable', { reason: 'full', providerId: full.id }));
    if (this.host.closed()) return Promise.reject(new EngineError('closed'));
    const next = this.nextInChain(chain);
    if (next) return Promise.resolve(next);
    if (signal?.aborted) return Promise.reject(new EngineError('aborted', { waitedMs: this.sinceQueued(chain) }));
    const eligible = this.host.eligibleFor(chain.predicate, chain);
    if (eligible.length === 0) return Promise.reject(new EngineError('config_changed', { waitedMs: this.sinceQueued(chain) }));
    return this.host.waitOrRefuse(eligible, { eligible: chain.predicate, signal }, chain);
  }

  private sinceQueued(chain: Chain<P>): number {
    return chain.queuedAt === undefined ? 0 : this.host.clock.now() - chain.queuedAt;
  }

  /** The next untried provider of the original order that can be used right now. */
  private nextInChain(chain: Chain<P>): Reservation<P> | null {
    for (const planned of chain.order) {
      if (chain.tried.has(planned.id)) continue;
      // Use the current configuration object: limits or profile rules may have changed since.
      const provider = this.host.provider(planned.id);
      if (!provider || (chain.predicate && !chain.predicate(provider))) continue;
      if (!this.host.isAvailable(provider) || !this.host.states.take(provider)) continue;
      chain.tried.add(provider.id);
      chain.announcedAt.set(provider.id, this.host.states.announcedCount(provider.id));
      return new Reservation(provider, chain, this);
    }
    return null;
  }
}
