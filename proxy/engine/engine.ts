// The routing engine of one router: strategy order, cooldown, concurrency slots, the FIFO queue
// (its waiters in waiters.ts) and the failover chain (its walk in chains.ts; docs/architecture.md,
// "The connect path" step 3). Pure logic: time comes from the Clock, slots from the SlotStore,
// and the caller does every connection attempt itself.

import type { Clock } from './clock';
import { EngineError, type BlockReason } from './errors';
import { ProviderStates, type CooldownListener } from './provider-states';
import { FailoverChains } from './chains';
import type { Chain, Reservation } from './reservation';
import { createStrategy, type RoutingView, type Strategy } from './strategies';
import { Waiters } from './waiters';
import { FULL_RETRY_MS } from './full-marks';
import {
  indexProviders,
  type AcquireOptions,
  type ProviderConfig,
  type ProviderIndex,
  type ProviderStatus,
  type RouterEngineOptions,
  type RouterSettings,
} from './types';

export type { CooldownListener } from './provider-states';

export { FULL_RETRY_MS } from './full-marks';
export type { AcquireOptions, RouterEngineOptions } from './types';

export class RouterEngine<P extends ProviderConfig = ProviderConfig> {
  private readonly clock: Clock;
  private readonly waiters: Waiters<P>;
  private readonly states: ProviderStates;
  private readonly chains: FailoverChains<P>;
  private readonly view: RoutingView;
  private settings!: RouterSettings;
  private providers: readonly P[] = [];
  private index: ProviderIndex<P> = new Map();
  private strategy!: Strategy;
  private closed = false;

  constructor(options: RouterEngineOptions<P>) {
    this.clock = options.clock;
    this.waiters = new Waiters<P>({
      clock: this.clock,
      queueTimeoutMs: () => this.settings.queueTimeoutMs,
      anyAvailable: () => this.providers.some((p) => this.isAvailable(p)),
      someAvailable: (eligible) => eligible.some((p) => this.isAvailable(p)),
      dispatch: (w, waitedMs) => this.chains.dispatch(w.eligible, w.predicate, waitedMs, w.enqueuedAt, w.chain),
      blockReason: (eligible) => this.blockReason(eligible),
    });
    this.states = new ProviderStates({
      clock: this.clock,
      settings: options.settings,
      slots: options.slots,
      fullRetryMs: options.fullRetryMs ?? FULL_RETRY_MS,
      shared: options.shared ?? false,
      wake: () => this.waiters.drain(),
    });
    this.chains = new FailoverChains<P>({
      clock: this.clock,
      states: this.states,
      order: (eligible) => this.strategy.order(eligible, this.view),
      provider: (id) => this.index.get(id)?.provider,
      isAvailable: (p) => this.isAvailable(p),
      closed: () => this.closed,
      drain: () => this.waiters.drain(),
      eligibleFor: (predicate, chain) => this.eligibleFor(predicate, chain),
      waitOrRefuse: (eligible, options, chain) => this.waitOrRefuse(eligible, options, chain),
    });
    this.view = {
      active: (id) => this.states.slots.active(id),
      latencyMs: (id) => this.states.latencyOf(id),
      available: (id) => this.isAvailable(this.index.get(id)?.provider),
      position: (id) => this.index.get(id)?.position ?? Number.MAX_SAFE_INTEGER,
    };
    this.configure(options.settings, options.providers);
  }

  /**
   * Applies a configuration change. Running reservations and leases keep their slots (docs/api.md: a
   * disabled provider's sessions continue); removed providers get no new connections; waiters are
   * re-matched and woken, and those left with no provider at all get `config_changed`. A smaller
   * queue limit or timeout applies to new arrivals only.
   */
  update(settings: RouterSettings, providers: readonly P[]): void {
    this.configure(settings, providers);
    for (const w of this.waiters.snapshot()) {
      w.eligible = this.eligibleFor(w.predicate, w.chain);
      if (w.eligible.length === 0) this.waiters.finish(w, new EngineError('config_changed', { waitedMs: this.waiters.waited(w) }));
    }
    this.waiters.drain();
  }

  async acquire(options: AcquireOptions<P> = {}): Promise<Reservation<P>> {
    if (this.closed) throw new EngineError('closed');
    if (options.signal?.aborted) throw new EngineError('aborted', { waitedMs: 0 });
    if (this.providers.length === 0) throw new EngineError('no_providers');
    if (options.pin !== undefined) return this.acquirePinned(options.pin, options.eligible);

    const eligible = options.eligible ? this.providers.filter(options.eligible) : this.providers;
    if (eligible.length === 0) throw new EngineError('none_eligible');
    // Serve the queue first: a slot that became usable without a wake-up yet (a cooldown ending
    // just now) belongs to the oldest waiter that can use it, not to this new arrival.
    this.waiters.drain();
    const reservation = this.chains.dispatch(eligible, options.eligible, 0);
    if (reservation) return reservation;

    return this.waitOrRefuse(eligible, options);
  }

  /** Health-check verdict; unhealthy providers get no new connections. */
  setHealthy(providerId: string, healthy: boolean, reason = 'its health check failed'): void {
    this.states.setHealthy(providerId, healthy, reason);
  }

  /**
   * The provider's configuration changed (a new address, new headers, a new vendor key): what
   * the engine learnt about the old one no longer says anything. Its cooldown, failure window,
   * health verdict, full mark and latency are dropped, so the fixed provider is tried at once;
   * the next failed attempt or health check judges it afresh. Its slots stay (running sessions).
   */
  reset(providerId: string): void {
    this.states.reset(providerId);
  }

  /**
   * A cooldown decided outside this engine (the shared failure count): the provider gets no new
   * connections for `remainingMs`. Returns false when it was cooling at least that long already.
   */
  enterCooldown(providerId: string, remainingMs: number): boolean {
    if (!this.index.has(providerId) || remainingMs <= 0) return false;
    return this.states.enterCooldown(providerId, this.clock.now() + remainingMs);
  }

  /** Re-examines the queue after capacity changed outside this engine (another proxy's lease). */
  recheck(): void {
    this.waiters.drain();
  }

  /**
   * The provider has room again: a provider that answered "at capacity" is back at once instead
   * of after FULL_RETRY_MS. `slots` (a count of sessions that ended, e.g. on other proxies) lets
   * that many connections try it while it stays marked, rather than every waiter at once; without
   * it (a health check's capacity report) the mark is cleared.
   */
  capacityFreed(providerId: string, slots?: number): void {
    this.states.capacityFreed(providerId, slots);
  }

  /** Subscribe to cooldown starts (the gateway's `provider.cooldown` webhook). Returns unsubscribe. */
  onCooldown(listener: CooldownListener): () => void {
    return this.states.onCooldown(listener);
  }

  status(): ProviderStatus[] {
    return this.providers.map((p) => {
      const s = this.states.status(p);
      return {
        id: p.id,
        slug: p.slug,
        healthy: s.healthy,
        active: s.active,
        maxConcurrent: s.maxConcurrent,
        cooldownUntil: s.cooldownUntil,
        full: s.full,
        priority: p.priority,
        latencyMs: s.latencyMs,
      };
    });
  }

  get queueLength(): number {
    return this.waiters.length;
  }

  /** Shutdown: rejects every waiter and new acquire with `closed`; held slots release normally. */
  close(): void {
    this.closed = true;
    for (const w of this.waiters.snapshot()) this.waiters.finish(w, new EngineError('closed', { waitedMs: this.waiters.waited(w) }));
    this.states.dispose();
  }

  private configure(settings: RouterSettings, providers: readonly P[]): void {
    const index = indexProviders(providers);
    // A strategy change starts a fresh rotation; an unchanged one keeps its state.
    if (!this.strategy || this.strategy.name !== settings.strategy) this.strategy = createStrategy(settings.strategy);
    this.settings = { ...settings };
    this.providers = [...providers];
    this.index = index;
    // State of removed providers is dropped: re-enabling one gives it a fresh start. Slots are
    // kept (they belong to sessions that are still running).
    const ids = new Set(index.keys());
    this.states.configure(settings, ids);
    this.strategy.retain(ids);
  }

  private acquirePinned(pin: string, predicate: ((p: P) => boolean) | undefined): Reservation<P> {
    const provider = this.index.get(pin)?.provider ?? this.providers.find((p) => p.slug === pin);
    if (!provider) throw new EngineError('pinned_not_found');
    if (predicate && !predicate(provider)) throw new EngineError('none_eligible');
    this.waiters.drain();
    const providerId = provider.id;
    if (!this.states.isRoutable(providerId))
      throw new EngineError('pinned_unavailable', { reason: 'unavailable', providerId, causes: this.states.causesOf([provider]) });
    if (this.states.isFull(providerId) || !this.states.take(provider)) {
      throw new EngineError('pinned_unavailable', { reason: 'full', providerId });
    }
    return this.chains.pinned(provider, predicate);
  }

  /**
   * Queues a connection that found no free provider, or refuses it at once: with the queue off or
   * full, and when waiting cannot help (a 503 at once, not a 429 after the queue timeout), that is
   * when every eligible provider is unhealthy (until a health check says otherwise) or cooling
   * down past the queue's deadline. A full provider may free a slot any moment: that one is waited for.
   */
  private waitOrRefuse(eligible: readonly P[], options: AcquireOptions<P>, chain?: Chain<P>): Promise<Reservation<P>> {
    const reason = this.blockReason(eligible);
    const { queueMaxSize, queueTimeoutMs } = this.settings;
    const causes = this.states.causesOf(eligible);
    if (queueMaxSize <= 0 || queueTimeoutMs <= 0)
      return Promise.reject(new EngineError('no_free_provider', { reason, causes: reason === 'unavailable' ? causes : undefined }));
    const deadline = (chain?.queuedAt ?? this.clock.now()) + queueTimeoutMs;
    if (!this.states.hopefulBefore(eligible, deadline)) return Promise.reject(new EngineError('no_free_provider', { reason: 'unavailable', causes }));
    if (this.waiters.length >= queueMaxSize) return Promise.reject(new EngineError('queue_full', { reason }));
    return this.waiters.enqueue(eligible, options, chain);
  }

  /** Providers a (re)queued connection may wait for: its eligibility, minus those that failed on its chain. */
  private eligibleFor(predicate: ((p: P) => boolean) | undefined, chain: Chain<P> | undefined): readonly P[] {
    if (!predicate && !chain) return this.providers;
    return this.providers.filter((p) => (!predicate || predicate(p)) && !chain?.tried.has(p.id));
  }

  private isAvailable(p: P | undefined): boolean {
    return p !== undefined && this.index.has(p.id) && this.states.isRoutable(p.id) && this.states.hasRoom(p);
  }

  private blockReason(eligible: readonly P[]): BlockReason {
    return eligible.some((p) => this.states.isRoutable(p.id)) ? 'full' : 'unavailable';
  }
}
