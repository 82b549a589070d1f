// Failed router-key attempts per client IP. After FAILURES_PER_WINDOW failures within the
// window, the IP gets 429 until the window moves on. Pure: the clock is passed in.

export const FAILURES_PER_WINDOW = 10;
export const FAILURE_WINDOW_MS = 60_000;

export class FailureThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly limit = FAILURES_PER_WINDOW, private readonly windowMs = FAILURE_WINDOW_MS) {}

  /** Seconds until the IP may try again, or 0 when it is not blocked. */
  blockedFor(ip: string, now: number): number {
    const recent = this.recent(ip, now);
    if (recent.length < this.limit) return 0;
    return Math.max(1, Math.ceil((recent[recent.length - this.limit]! + this.windowMs - now) / 1000));
  }

  recordFailure(ip: string, now: number): void {
    const recent = this.recent(ip, now);
    recent.push(now);
    this.failures.set(ip, recent);
    if (this.failures.size > 10_000) this.prune(now);
  }

  private recent(ip: string, now: number): number[] {
    return (this.failures.get(ip) ?? []).filter((t) => now - t < this.windowMs);
  }

  private prune(now: number): void {
    for (const [ip, times] of this.failures) if (times.every((t) => now - t >= this.windowMs)) this.failures.delete(ip);
  }
}
