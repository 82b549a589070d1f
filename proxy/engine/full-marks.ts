// Providers that answered "at capacity" (a managed pool's "full"): left out of routing for a moment
// (the engine's fullRetryMs) without counting as a failure. A freed slot announced by another proxy
// lets that many connections try the provider while it stays marked (`tries`); a slot freed here,
// or a capacity report with room, clears the mark. Times are read from the clock, so a late timer
// never extends a mark.
import type { Clock, TimerHandle } from './clock';

/**
 * How long a provider that answered "at capacity" (Reservation.full) is left out when nothing
 * tells the engine sooner that it has room: a slot released on it here, or capacityFreed() (a
 * health check's capacity report). Its capacity may be taken by other routers, other proxies or
 * direct clients, whose releases this engine never sees, so the timer is what notices those.
 */
export const FULL_RETRY_MS = 1_000;

interface Mark {
  until: number;
  timer: TimerHandle;
  tries: number;
}

export class FullMarks {
  private readonly marks = new Map<string, Mark>();

  /** `expired` runs when a mark ends by itself (the engine then serves its queue). */
  constructor(
    private readonly clock: Clock,
    private readonly retryMs: number,
    private readonly expired: () => void,
  ) {}

  mark(providerId: string, tries = 0): void {
    this.clear(providerId);
    const timer = this.clock.setTimer(() => {
      if (this.marks.get(providerId)?.timer === timer) this.marks.delete(providerId);
      this.expired();
    }, this.retryMs);
    this.marks.set(providerId, { until: this.clock.now() + this.retryMs, timer, tries });
  }

  /** False when it was not marked. */
  clear(providerId: string): boolean {
    const mark = this.marks.get(providerId);
    if (!mark) return false;
    this.clock.clearTimer(mark.timer);
    this.marks.delete(providerId);
    return true;
  }

  /** Clears every mark whose provider `keep` refuses (all of them without `keep`). */
  clearAll(keep: (providerId: string) => boolean = () => false): void {
    for (const id of [...this.marks.keys()]) if (!keep(id)) this.clear(id);
  }

  /** Marked, and no announced try left on it. */
  isFull(providerId: string): boolean {
    const mark = this.marks.get(providerId);
    return mark !== undefined && this.clock.now() < mark.until && mark.tries === 0;
  }

  /** Slots freed elsewhere: that many connections may try it while it stays marked. False when it is not marked. */
  allowTries(providerId: string, slots: number): boolean {
    const mark = this.marks.get(providerId);
    if (mark) mark.tries += slots;
    return mark !== undefined;
  }

  /** A connection let through by an announced try uses it up. */
  useTry(providerId: string): void {
    const mark = this.marks.get(providerId);
    if (mark && mark.tries > 0) mark.tries--;
  }
}
