// The routing engine of one router: strategy order, cooldown, concurrency slots, the FIFO queue
// (its waiters in waiters.ts) and the failover chain (docs/architecture.md, "The connect path"
// step 3). Pure logic: time comes from the Clock, slots from the SlotStore, and the caller does
// every connection attempt itself.

import type { Clock } from './clock';
import { CooldownTracker } from './cooldown';
import { EngineError, type BlockReason } from './errors';
import { FullMarks } from './full-marks';
import { ProviderHealth } from './provider-health';
import { LatencyTracker } from './latency';
import { Reservation, type Chain, type ReservationHost } from './reservation';
import { MemorySlotStore, type SlotStore } from './slots';
import { createStrategy, type RoutingView, type Strategy } from './strategies';
import { Waiters } from './waiters';
import { concurrencyLimit, indexProviders, type ProviderConfig, type ProviderIndex, type ProviderStatus, type RouterSettings } from './types';

/**
 * How long a provider that answered "at capacity" (Reservation.full) is left out when nothing
 * tells the engine sooner that it has room: a slot released on it here, or capacityFreed() (a
 * health check's capacity report). Its capacity may be taken by other routers, other proxies or
 * direct clients, whose releases this engine never sees, so the timer is what notices those.
 */
export const FULL_RETRY_MS = 1_000;

export interface RouterEngineOptions<P extends ProviderConfig> {
  clock: Clock;
  settings: RouterSettings;
  /** Enabled providers in configured order (the order is the strategies' stable tie-breaker). */
  providers: readonly P[];
  slots?: SlotStore;
  /** Overrides FULL_RETRY_MS. */
  fullRetryMs?: number;
  /**
   * Several proxies share these providers (proxy/cluster/): cooldown is decided from the failures
   * all of them saw and applied here through enterCooldown() (this engine's own count decides
   * nothing), and a provider found full stays so until capacityFreed() announces a freed slot (a
   * slot released here is announced the same way), which lets one waiter try for each.
   */
  shared?: boolean;
}

export interface AcquireOptions<P extends ProviderConfig> {
  /** Provider id or slug: route only there, never queue, never fail over. */
  pin?: string;
  /** Filters the providers this connection may use (e.g. profile rules). */
  eligible?: (provider: P) => boolean;
  /** Aborting while queued rejects with `aborted`; it does not touch a resolved reservation. */
  signal?: AbortSignal;
}

export type CooldownListener = (providerId: string, cooldownMs: number) => void;

export class RouterEngine<P extends ProviderConfig = ProviderConfig> {
  private readonly clock: Clock;
  private readonly slots: SlotStore;
  private readonly cooldown: CooldownTracker;
  private readonly latency = new LatencyTracker();
  private readonly health = new ProviderHealth();
  private readonly waiters: Waiters<P>;
  private readonly cooldownListeners = new Set<CooldownListener>();
  /**
   * Providers that answered "at capacity": left out until `until` (from the time, like cooldown),
   * except for `tries` connections, one per slot announced freed while the mark holds.
   */
  private readonly full: FullMarks;
  /** Freed slots announced per provider (capacityFreed with a count), ever: see Chain.announcedAt. */
  private readonly announced = new Map<string, number>();
  private readonly shared: boolean;
  private readonly host: ReservationHost<P>;
  private readonly view: RoutingView;
  private settings!: RouterSettings;
  private providers: readonly P[] = [];
  private index: ProviderIndex<P> = new Map();
  private strategy!: Strategy;
  private closed = false;

  constructor(options: RouterEngineOptions<P>) {
    this.clock = options.clock;
    this.slots = options.slots ?? new MemorySlotStore();
    this.waiters = new Waiters<P>({
      clock: this.clock,
      queueTimeoutMs: () => this.settings.queueTimeoutMs,
      anyAvailable: () => this.providers.some((p) => this.isAvailable(p)),
      someAvailable: (eligible) => eligible.some((p) => this.isAvailable(p)),
      dispatch: (w, waitedMs) => this.dispatch(w.eligible, w.predicate, waitedMs, w.enqueuedAt, w.chain),
      blockReason: (eligible) => this.blockReason(eligible),
    });
    this.full = new FullMarks(this.clock, options.fullRetryMs ?? FULL_RETRY_MS, () => this.waiters.drain());
    this.cooldown = new CooldownTracker(this.clock, options.settings, () => this.waiters.drain(), !options.shared);
    this.shared = options.shared ?? false;
    this.host = {
      recordSuccess: (p, ms) => this.recordSuccess(p, ms),
      failover: (chain, p, reason, untilReset) => this.failover(chain, p, reason, untilReset),
      skip: (chain, p) => this.skipped(chain, p),
      full: (chain, p, signal) => this.onFull(chain, p, signal),
      releaseSlot: (p) => this.releaseSlot(p),
    };
    this.view = {
      active: (id) => this.slots.active(id),
      latencyMs: (id) => this.latency.get(id),
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
    const reservation = this.dispatch(eligible, options.eligible, 0);
    if (reservation) return reservation;

    return this.waitOrRefuse(eligible, options);
  }

  /** Health-check verdict; unhealthy providers get no new connections. */
  setHealthy(providerId: string, healthy: boolean, reason = 'its health check failed'): void {
    if (!healthy) this.health.markDown(providerId, reason);
    else if (this.health.markUp(providerId)) this.waiters.drain();
  }

  /**
   * The provider's configuration changed (a new address, new headers, a new vendor key): what
   * the engine learnt about the old one no longer says anything. Its cooldown, failure window,
   * health verdict, full mark and latency are dropped, so the fixed provider is tried at once;
   * the next failed attempt or health check judges it afresh. Its slots stay (running sessions).
   */
  reset(providerId: string): void {
    this.cooldown.forget(providerId);
    this.health.markUp(providerId);
    this.full.clear(providerId);
    this.latency.forget(providerId);
    this.waiters.drain();
  }

  /**
   * A cooldown decided outside this engine (the shared failure count): the provider gets no new
   * connections for `remainingMs`. Returns false when it was cooling at least that long already.
   */
  enterCooldown(providerId: string, remainingMs: number): boolean {
    if (!this.index.has(providerId) || remainingMs <= 0) return false;
    return this.cooldown.enter(providerId, this.clock.now() + remainingMs);
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
    if (slots !== undefined) {
      this.announced.set(providerId, (this.announced.get(providerId) ?? 0) + slots);
      this.full.allowTries(providerId, slots);
    } else if (!this.full.clear(providerId)) return;
    this.waiters.drain();
  }

  /** Subscribe to cooldown starts (the gateway's `provider.cooldown` webhook). Returns unsubscribe. */
  onCooldown(listener: CooldownListener): () => void {
    this.cooldownListeners.add(listener);
    return () => this.cooldownListeners.delete(listener);
  }

  status(): ProviderStatus[] {
    return this.providers.map((p) => {
      const cooldownUntil = this.cooldown.cooldownUntil(p.id);
      return {
        id: p.id,
        slug: p.slug,
        healthy: cooldownUntil === null && !this.health.isDown(p.id),
        active: this.slots.active(p.id),
        maxConcurrent: concurrencyLimit(p),
        cooldownUntil,
        full: this.full.isFull(p.id),
        priority: p.priority,
        latencyMs: this.latency.get(p.id),
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
    this.cooldown.dispose();
    this.full.clearAll();
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
    this.cooldown.configure(settings);
    this.cooldown.retain(ids);
    this.latency.retain(ids);
    this.strategy.retain(ids);
    this.health.retain(ids);
    this.full.clearAll((id) => ids.has(id));
    for (const id of [...this.announced.keys()]) if (!ids.has(id)) this.announced.delete(id);
  }

  private acquirePinned(pin: string, predicate: ((p: P) => boolean) | undefined): Reservation<P> {
    const provider = this.index.get(pin)?.provider ?? this.providers.find((p) => p.slug === pin);
    if (!provider) throw new EngineError('pinned_not_found');
    if (predicate && !predicate(provider)) throw new EngineError('none_eligible');
    this.waiters.drain();
    const providerId = provider.id;
    if (!this.isRoutable(provider)) throw new EngineError('pinned_unavailable', { reason: 'unavailable', providerId, causes: this.health.causesOf([provider]) });
    if (this.full.isFull(providerId) || !this.take(provider)) {
      throw new EngineError('pinned_unavailable', { reason: 'full', providerId });
    }
    const chain: Chain<P> = { order: [provider], tried: new Set([providerId]), attempts: [], pinned: true, waitedMs: 0, predicate, announcedAt: new Map() };
    chain.announcedAt.set(providerId, this.announced.get(providerId) ?? 0);
    return new Reservation(provider, chain, this.host);
  }

  /**
   * Takes a slot on the first available provider of the strategy order, or returns null. A
   * waiter back after a full answer continues its chain (its failures so far stay out).
   */
  private dispatch(eligible: readonly P[], predicate: ((p: P) => boolean) | undefined, waitedMs: number, queuedAt?: number, previous?: Chain<P>): Reservation<P> | null {
    const order = this.strategy.order(eligible, this.view);
    for (const provider of order) {
      if (!this.isAvailable(provider) || !this.take(provider)) continue;
      const tried = previous?.tried ?? new Set<string>();
      tried.add(provider.id);
      const chain: Chain<P> = { order, tried, attempts: previous?.attempts ?? [], pinned: false, waitedMs, predicate, queuedAt, announcedAt: previous?.announcedAt ?? new Map() };
      chain.announcedAt.set(provider.id, this.announced.get(provider.id) ?? 0);
      return new Reservation(provider, chain, this.host);
    }
    return null;
  }

  private skipped(chain: Chain<P>, skipped: P): Reservation<P> | null {
    this.slots.release(skipped.id);
    this.waiters.drain();
    return chain.pinned || this.closed ? null : this.nextInChain(chain);
  }

  private failover(chain: Chain<P>, failed: P, reason: string, untilReset: boolean): Reservation<P> | null {
    const configured = this.index.has(failed.id);
    if (configured && untilReset) this.health.markDown(failed.id, reason);
    else if (configured) this.health.noteFailure(failed.id, reason);
    const cooldownMs = configured ? this.cooldown.record(failed.id, false) : null;
    this.slots.release(failed.id);
    this.waiters.drain();
    const next = chain.pinned || this.closed ? null : this.nextInChain(chain);
    if (cooldownMs !== null) this.emitCooldown(failed.id, cooldownMs);
    return next;
  }

  /**
   * A full answer: no outcome for cooldown, the slot back, the provider left out for now; then the
   * next free provider of the chain, or the queue (Reservation.full).
   */
  private onFull(chain: Chain<P>, full: P, signal: AbortSignal | undefined): Promise<Reservation<P>> {
    this.slots.release(full.id);
    // Slots announced freed while this attempt was under way are still to be tried.
    const meanwhile = (this.announced.get(full.id) ?? 0) - (chain.announcedAt.get(full.id) ?? Number.MAX_SAFE_INTEGER);
    if (this.index.has(full.id)) this.full.mark(full.id, Math.max(0, meanwhile));
    // Not used up for this connection: it may be tried again once it has room.
    chain.tried.delete(full.id);
    this.waiters.drain();
    if (chain.pinned) return Promise.reject(new EngineError('pinned_unavailable', { reason: 'full', providerId: full.id }));
    if (this.closed) return Promise.reject(new EngineError('closed'));
    const next = this.nextInChain(chain);
    if (next) return Promise.resolve(next);
    if (signal?.aborted) return Promise.reject(new EngineError('aborted', { waitedMs: this.sinceQueued(chain) }));
    const eligible = this.eligibleFor(chain.predicate, chain);
    if (eligible.length === 0) return Promise.reject(new EngineError('config_changed', { waitedMs: this.sinceQueued(chain) }));
    return this.waitOrRefuse(eligible, { eligible: chain.predicate, signal }, chain);
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
    const causes = this.health.causesOf(eligible);
    if (queueMaxSize <= 0 || queueTimeoutMs <= 0) return Promise.reject(new EngineError('no_free_provider', { reason, causes: reason === 'unavailable' ? causes : undefined }));
    const deadline = (chain?.queuedAt ?? this.clock.now()) + queueTimeoutMs;
    const hopeful = eligible.some((p) => !this.health.isDown(p.id) && (this.cooldown.cooldownUntil(p.id) ?? 0) < deadline);
    if (!hopeful) return Promise.reject(new EngineError('no_free_provider', { reason: 'unavailable', causes }));
    if (this.waiters.length >= queueMaxSize) return Promise.reject(new EngineError('queue_full', { reason }));
    return this.waiters.enqueue(eligible, options, chain);
  }

  /** Providers a (re)queued connection may wait for: its eligibility, minus those that failed on its chain. */
  private eligibleFor(predicate: ((p: P) => boolean) | undefined, chain: Chain<P> | undefined): readonly P[] {
    if (!predicate && !chain) return this.providers;
    return this.providers.filter((p) => (!predicate || predicate(p)) && !chain?.tried.has(p.id));
  }

  private sinceQueued(chain: Chain<P>): number {
    return chain.queuedAt === undefined ? 0 : this.clock.now() - chain.queuedAt;
  }

  /** Takes a slot for a new attempt; one let through by a freed-slot announcement uses up its try. */
  private take(provider: P): boolean {
    if (!this.slots.tryAcquire(provider.id, concurrencyLimit(provider))) return false;
    this.full.useTry(provider.id);
    return true;
  }

  /** The next untried provider of the original order that can be used right now. */
  private nextInChain(chain: Chain<P>): Reservation<P> | null {
    for (const planned of chain.order) {
      if (chain.tried.has(planned.id)) continue;
      // Use the current configuration object: limits or profile rules may have changed since.
      const provider = this.index.get(planned.id)?.provider;
      if (!provider || (chain.predicate && !chain.predicate(provider))) continue;
      if (!this.isAvailable(provider) || !this.take(provider)) continue;
      chain.tried.add(provider.id);
      chain.announcedAt.set(provider.id, this.announced.get(provider.id) ?? 0);
      return new Reservation(provider, chain, this.host);
    }
    return null;
  }

  private recordSuccess(provider: P, connectMs: number): void {
    if (!this.index.has(provider.id)) return;
    this.health.forgetCause(provider.id);
    this.latency.record(provider.id, connectMs);
    const cooldownMs = this.cooldown.record(provider.id, true);
    if (cooldownMs !== null) this.emitCooldown(provider.id, cooldownMs);
  }

  private releaseSlot(provider: P): void {
    this.slots.release(provider.id);
    // A slot freed on a provider that said "at capacity" means it has room again. Shared with
    // other proxies, the release is announced to all of them, this one included (capacityFreed).
    if (!this.shared) this.full.clear(provider.id);
    this.waiters.drain();
  }

  private emitCooldown(providerId: string, cooldownMs: number): void {
    for (const listener of this.cooldownListeners) {
      try {
        listener(providerId, cooldownMs);
      } catch {
        // A failing webhook hook must not break routing; the listener owns its error reporting.
      }
    }
  }

  private isRoutable(p: P): boolean {
    return !this.health.isDown(p.id) && !this.cooldown.isCooling(p.id);
  }

  private isAvailable(p: P | undefined): boolean {
    if (!p || !this.index.has(p.id) || !this.isRoutable(p) || this.full.isFull(p.id)) return false;
    const limit = concurrencyLimit(p);
    return limit === null || this.slots.active(p.id) < limit;
  }

  private blockReason(eligible: readonly P[]): BlockReason {
    return eligible.some((p) => this.isRoutable(p)) ? 'full' : 'unavailable';
  }
}
