// Concurrency slots per provider. Behind an interface because the hosted service will run several
// proxy processes sharing providers, each holding lease rows in Postgres (docs/architecture.md,
// "Scaling out"); the engine must not assume its own counter is the whole truth.

/**
 * Synchronous on purpose: the engine's dispatch (FIFO hand-over, failover) must be atomic with
 * respect to other calls into the same engine. A shared store keeps a local view that it can
 * answer from synchronously (e.g. pre-claimed lease rows, refreshed in the background) and calls
 * engine.recheck() when capacity frees elsewhere.
 */
export interface SlotStore {
  /** Takes one slot if fewer than `limit` are held (null = unlimited). Must never over-admit. */
  tryAcquire(providerId: string, limit: number | null): boolean;
  /** Returns one slot. The caller guarantees it holds one. */
  release(providerId: string): void;
  /** Slots held now (sessions plus attempts in flight). */
  active(providerId: string): number;
}

export class MemorySlotStore implements SlotStore {
  private readonly counts = new Map<string, number>();

  tryAcquire(providerId: string, limit: number | null): boolean {
    const held = this.active(providerId);
    if (limit !== null && held >= limit) return false;
    this.counts.set(providerId, held + 1);
    return true;
  }

  release(providerId: string): void {
    const held = this.active(providerId);
    if (held <= 0) throw new Error(`slot released twice on provider ${providerId}`);
    if (held === 1) this.counts.delete(providerId);
    else this.counts.set(providerId, held - 1);
  }

  active(providerId: string): number {
    return this.counts.get(providerId) ?? 0;
  }
}
