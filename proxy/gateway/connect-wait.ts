// A gateway connection's time in the queue (docs/gateway.md, "Failover and cooldown"). The engine
// queues a connection that finds nothing free, and one whose provider answered "full"
// (Reservation.full), but a chain whose every provider failed to dial is over: fail() returns null
// and the engine has no call that queues it. With the queue on, the gateway then acquires again,
// so the connection waits as the others do, for a slot freed or a cooldown ended. It keeps the
// deadline it got when it first queued: every later wait (acquire, full) is cut there by an abort,
// which is answered as the queue timeout.
import { log } from '../../lib/log';
import { EngineError, isEngineError, type Reservation, type RouterEngine } from '../engine';
import type { ProviderConfig } from '../engine';
import type { GatewayProvider } from './config';

/** A gateway provider as the engine routes it. */
export type EngineProvider = ProviderConfig & { config: GatewayProvider };

export interface WaitSettings {
  /** gateway.yml's `queue`: on when both are above 0. */
  queue: { maxSize: number; timeoutMs: number };
  /**
   * gateway.yml's `gateway.cooldown`: a provider that failed this connection is dialled again at
   * once up to `minRequestVolume` times in a row (the attempts cooldown needs to judge it); if it is
   * still not cooling then, nothing will announce its return, so it stays out of this connection.
   */
  cooldown: { minRequestVolume: number };
}

export class ConnectWait {
  /** Cancels an engine wait: the client went away, or this connection's queue deadline passed. */
  readonly signal: AbortSignal;
  private readonly expired = new AbortController();
  private queuedAt: number | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Failures of this connection per provider since the provider was last seen cooling. */
  private readonly strikes = new Map<string, number>();

  constructor(
    private readonly engine: RouterEngine<EngineProvider>,
    private readonly settings: WaitSettings,
    private readonly client: AbortSignal,
  ) {
    this.signal = AbortSignal.any([client, this.expired.signal]);
  }

  get enabled(): boolean {
    return this.settings.queue.maxSize > 0 && this.settings.queue.timeoutMs > 0;
  }

  /**
   * Awaits an engine call that may queue (acquire, full) under this connection's deadline: a
   * reservation handed out of the queue starts the deadline if none runs yet (from when it was
   * queued), and an abort at the deadline rejects as `queue_timeout`.
   */
  async settle(wait: Promise<Reservation<EngineProvider>>): Promise<Reservation<EngineProvider>> {
    try {
      const reservation = await wait;
      if (reservation.waitedMs > 0) this.begin(Date.now() - reservation.waitedMs);
      return reservation;
    } catch (error) {
      if (this.expired.signal.aborted && !this.client.aborted && isEngineError(error, 'aborted')) throw this.timedOut();
      throw error;
    }
  }

  /** A dial on the provider failed (after Reservation.fail): a strike, unless it sent it into cooldown. */
  failed(providerId: string): void {
    if (this.coolingUntil(providerId) !== null) this.strikes.delete(providerId);
    else this.strikes.set(providerId, (this.strikes.get(providerId) ?? 0) + 1);
  }

  /**
   * Every provider of the chain failed (`attempts`, their slugs): back to the queue until the
   * deadline. Rejects as acquire() does; at once with `queue_timeout` past the deadline, and with
   * `no_free_provider` when no provider it may still use can free in time: the engine's rule
   * (waitOrRefuse), applied to this connection's deadline rather than the fresh one the engine
   * would give a new acquire, and to the providers left once strikes are counted.
   */
  again(attempts: readonly string[]): Promise<Reservation<EngineProvider>> {
    const deadline = this.begin(Date.now());
    if (Date.now() >= deadline) return Promise.reject(this.timedOut());
    const budget = Math.max(1, this.settings.cooldown.minRequestVolume);
    const usable = (id: string) => this.coolingUntil(id) !== null || (this.strikes.get(id) ?? 0) < budget;
    const left = this.engine.status().filter((s) => usable(s.id));
    if (left.every((s) => !s.healthy && (s.cooldownUntil ?? Infinity) >= deadline)) {
      return Promise.reject(new EngineError('no_free_provider', { reason: 'unavailable' }));
    }
    log.info({ attempts, remainingMs: deadline - Date.now() }, 'every provider failed: back to the queue');
    return this.settle(this.engine.acquire({ eligible: (p) => usable(p.id), signal: this.signal }));
  }

  /** Stops the deadline's timer (the connection is settled one way or the other). */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Starts the deadline from `queuedAt` unless one runs already; returns it. */
  private begin(queuedAt: number): number {
    if (this.queuedAt === null) {
      this.queuedAt = queuedAt;
      this.timer = setTimeout(() => this.expired.abort(), Math.max(0, queuedAt + this.settings.queue.timeoutMs - Date.now()));
    }
    return this.queuedAt + this.settings.queue.timeoutMs;
  }

  private timedOut(): EngineError {
    return new EngineError('queue_timeout', { waitedMs: this.queuedAt === null ? 0 : Date.now() - this.queuedAt });
  }

  private coolingUntil(providerId: string): number | null {
    return this.engine.status().find((s) => s.id === providerId)?.cooldownUntil ?? null;
  }
}
