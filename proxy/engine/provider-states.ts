// What one router's engine knows about each of its providers: the slots taken, cooldown (from the
// failures it saw or the cluster's word), the health verdict, "at capacity" marks with the freed
// slots announced while they hold, and connect latency. The engine (engine.ts) decides the order
// and the queue from these; each change that can let a waiter through calls `wake`.
import type { Clock } from './clock';
import { CooldownTracker, type CooldownSettings } from './cooldown';
import { FullMarks } from './full-marks';
import { LatencyTracker } from './latency';
import { ProviderHealth } from './provider-health';
import { MemorySlotStore, type SlotStore } from './slots';
import { concurrencyLimit, type ProviderConfig, type ProviderStatus } from './types';

export type CooldownListener = (providerId: string, cooldownMs: number) => void;

export interface ProviderStatesOptions {
  clock: Clock;
  settings: CooldownSettings;
  slots?: SlotStore;
  fullRetryMs: number;
  /** Slots shared with other proxies: their releases are announced to all (capacityFreed), this one's too. */
  shared: boolean;
  /** Something changed that may let a waiter through. */
  wake: () => void;
}

export class ProviderStates {
  readonly slots: SlotStore;
  private readonly cooldown: CooldownTracker;
  private readonly latency = new LatencyTracker();
  private readonly health = new ProviderHealth();
  /**
   * Providers that answered "at capacity": left out until their mark ends, except for one
   * connection per slot announced freed while the mark holds.
   */
  private readonly full: FullMarks;
  /** Freed slots announced per provider (capacityFreed with a count), ever: see Chain.announcedAt. */
  private readonly announced = new Map<string, number>();
  private readonly cooldownListeners = new Set<CooldownListener>();
  private readonly shared: boolean;
  private readonly wake: () => void;

  constructor(options: ProviderStatesOptions) {
    this.slots = options.slots ?? new MemorySlotStore();
    this.shared = options.shared;
    this.wake = options.wake;
    this.full = new FullMarks(options.clock, options.fullRetryMs, options.wake);
    this.cooldown = new CooldownTracker(options.clock, options.settings, options.wake, !options.shared);
  }

  /** New settings; what was known of providers no longer configured is dropped (slots stay: their sessions run on). */
  configure(settings: CooldownSettings, ids: ReadonlySet<string>): void {
    this.cooldown.configure(settings);
    this.cooldown.retain(ids);
    this.latency.retain(ids);
    this.health.retain(ids);
    this.full.clearAll((id) => ids.has(id));
    for (const id of [...this.announced.keys()]) if (!ids.has(id)) this.announced.delete(id);
  }

  /** Neither down nor cooling. */
  isRoutable(id: string): boolean {
    return !this.health.isDown(id) && !this.cooldown.isCooling(id);
  }

  /** Not marked full and below its concurrency limit. */
  hasRoom(p: ProviderConfig): boolean {
    if (this.full.isFull(p.id)) return false;
    const limit = concurrencyLimit(p);
    return limit === null || this.slots.active(p.id) < limit;
  }

  isFull(id: string): boolean {
    return this.full.isFull(id);
  }

  /** Takes a slot for a new attempt; one let through by a freed-slot announcement uses up its try. */
  take(p: ProviderConfig): boolean {
    if (!this.slots.tryAcquire(p.id, concurrencyLimit(p))) return false;
    this.full.useTry(p.id);
    return true;
  }

  /** The announcements so far, for an attempt's chain to compare with when the provider says full. */
  announcedCount(id: string): number {
    return this.announced.get(id) ?? 0;
  }

  /** A session ended: its slot is free, and a provider that said "at capacity" has room again. */
  releaseEnded(id: string): void {
    this.slots.release(id);
    // Shared with other proxies, the release is announced to all of them, this one included (capacityFreed).
    if (!this.shared) this.full.clear(id);
    this.wake();
  }

  /** An attempt that ended without a session gives its slot back. */
  releaseAttempt(id: string): void {
    this.slots.release(id);
  }

  recordSuccess(id: string, connectMs: number): void {
    this.health.forgetCause(id);
    this.latency.record(id, connectMs);
    const cooldownMs = this.cooldown.record(id, true);
    if (cooldownMs !== null) this.emitCooldown(id, cooldownMs);
  }

  /** A failed attempt: counted for cooldown (down until a reset when `untilReset`); returns the cooldown it started, if any. */
  recordFailure(id: string, reason: string, untilReset: boolean): number | null {
    if (untilReset) this.health.markDown(id, reason);
    else this.health.noteFailure(id, reason);
    return this.cooldown.record(id, false);
  }

  /** The provider answered "at capacity"; `tries`: slots announced freed while that attempt was under way. */
  markFull(id: string, tries: number): void {
    this.full.mark(id, Math.max(0, tries));
  }

  setHealthy(id: string, healthy: boolean, reason: string): void {
    if (!healthy) this.health.markDown(id, reason);
    else if (this.health.markUp(id)) this.wake();
  }

  /** The provider's configuration changed: what was learnt about the old one is dropped. */
  reset(id: string): void {
    this.cooldown.forget(id);
    this.health.markUp(id);
    this.full.clear(id);
    this.latency.forget(id);
    this.wake();
  }

  enterCooldown(id: string, until: number): boolean {
    return this.cooldown.enter(id, until);
  }

  capacityFreed(id: string, slots?: number): void {
    if (slots !== undefined) {
      this.announced.set(id, this.announcedCount(id) + slots);
      this.full.allowTries(id, slots);
    } else if (!this.full.clear(id)) return;
    this.wake();
  }

  onCooldown(listener: CooldownListener): () => void {
    this.cooldownListeners.add(listener);
    return () => this.cooldownListeners.delete(listener);
  }

  emitCooldown(id: string, cooldownMs: number): void {
    for (const listener of this.cooldownListeners) {
      try {
        listener(id, cooldownMs);
      } catch {
        // A failing webhook hook must not break routing; the listener owns its error reporting.
      }
    }
  }

  /** Why the providers turn a connection away: each unhealthy one's cause. */
  causesOf(providers: readonly ProviderConfig[]): string[] {
    return this.health.causesOf(providers);
  }

  /** Could one of them take a connection before `deadline` (not down, cooling no longer than that)? */
  hopefulBefore(providers: readonly ProviderConfig[], deadline: number): boolean {
    return providers.some((p) => !this.health.isDown(p.id) && (this.cooldown.cooldownUntil(p.id) ?? 0) < deadline);
  }

  latencyOf(id: string): number | null {
    return this.latency.get(id);
  }

  status(p: ProviderConfig): Omit<ProviderStatus, 'id' | 'slug' | 'priority'> {
    const cooldownUntil = this.cooldown.cooldownUntil(p.id);
    return {
      healthy: cooldownUntil === null && !this.health.isDown(p.id),
      active: this.slots.active(p.id),
      maxConcurrent: concurrencyLimit(p),
      cooldownUntil,
      full: this.full.isFull(p.id),
      latencyMs: this.latency.get(p.id),
    };
  }

  dispose(): void {
    this.cooldown.dispose();
    this.full.clearAll();
  }
}
