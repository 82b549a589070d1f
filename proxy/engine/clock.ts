// Time as a dependency: the engine never reads Date.now() or calls setTimeout itself, so tests
// drive it with FakeClock and never sleep.

declare const timerBrand: unique symbol;
/** Opaque handle; only the clock that issued it can interpret it. */
export type TimerHandle = { readonly [timerBrand]: true };

export interface Clock {
  /** Milliseconds since the epoch (or any fixed origin; only differences matter). */
  now(): number;
  setTimer(fn: () => void, ms: number): TimerHandle;
  clearTimer(handle: TimerHandle): void;
}

// Node turns delays above 2^31-1 ms into 1 ms. The router's ranges stop at 86,400,000 ms, so
// clamping never shortens a real timer; it only guards against a bad caller firing instantly.
const MAX_TIMER_MS = 2 ** 31 - 1;

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(fn, ms) {
    const t = setTimeout(fn, Math.min(Math.max(0, ms), MAX_TIMER_MS)) as unknown as {
      unref?: () => void;
    };
    // Engine timers (queue deadlines, cooldown ends) must not keep a draining process alive:
    // every waiter belongs to an open client socket, which already does.
    t.unref?.();
    return t as unknown as TimerHandle;
  },
  clearTimer(handle) {
    clearTimeout(handle as unknown as Parameters<typeof clearTimeout>[0]);
  },
};

interface FakeTimer {
  due: number;
  seq: number;
  fn: () => void;
}

/**
 * Manual clock for tests. advance(ms) fires every timer due up to now+ms in due-time order
 * (ties in creation order), setting now() to each timer's due time before calling it, so a
 * callback sees the same time it would see in production. Timers created by a callback fire in
 * the same advance() if they fall inside the window.
 */
export class FakeClock implements Clock {
  private time: number;
  private seq = 0;
  private readonly timers = new Map<number, FakeTimer>();

  constructor(start = 0) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimer(fn: () => void, ms: number): TimerHandle {
    const seq = ++this.seq;
    this.timers.set(seq, { due: this.time + Math.max(0, ms), seq, fn });
    return seq as unknown as TimerHandle;
  }

  clearTimer(handle: TimerHandle): void {
    this.timers.delete(handle as unknown as number);
  }

  /** Number of timers not yet fired or cleared. */
  get pendingTimers(): number {
    return this.timers.size;
  }

  advance(ms: number): void {
    if (ms < 0) throw new RangeError('FakeClock cannot go backwards');
    const target = this.time + ms;
    for (;;) {
      const next = this.nextDue(target);
      if (!next) break;
      this.timers.delete(next.seq);
      this.time = Math.max(this.time, next.due);
      next.fn();
    }
    this.time = target;
  }

  /**
   * Moves time without firing timers, as when the event loop runs timers late; the next
   * advance() fires them (at the later time). Lets tests check that nothing depends on timers
   * being punctual.
   */
  jump(ms: number): void {
    if (ms < 0) throw new RangeError('FakeClock cannot go backwards');
    this.time += ms;
  }

  private nextDue(limit: number): FakeTimer | undefined {
    let best: FakeTimer | undefined;
    for (const t of this.timers.values()) {
      if (t.due > limit) continue;
      if (!best || t.due < best.due || (t.due === best.due && t.seq < best.seq)) best = t;
    }
    return best;
  }
}
