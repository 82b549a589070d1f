// Moving average of time-to-101 per provider, for the latency-optimized strategy.

/**
 * Weight of the newest sample. 0.3 follows a provider that got slower within a handful of
 * connects, while one slow outlier moves the average by less than a third of the gap.
 */
export const LATENCY_EWMA_ALPHA = 0.3;

export class LatencyTracker {
  private readonly averages = new Map<string, number>();

  constructor(private readonly alpha = LATENCY_EWMA_ALPHA) {}

  record(providerId: string, ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) return;
    const prev = this.averages.get(providerId);
    // The first sample is the average: there is nothing to smooth against yet.
    this.averages.set(providerId, prev === undefined ? ms : prev + this.alpha * (ms - prev));
  }

  /** null until the provider has one successful connect. */
  get(providerId: string): number | null {
    return this.averages.get(providerId) ?? null;
  }

  /** Forget one provider (its address changed), so it is measured afresh. */
  forget(providerId: string): void {
    this.averages.delete(providerId);
  }

  /** Forget providers no longer configured, so a re-added one is measured afresh. */
  retain(ids: ReadonlySet<string>): void {
    for (const id of this.averages.keys()) if (!ids.has(id)) this.averages.delete(id);
  }
}
