// Per-provider failure accounting over a sliding 60-second window (docs/gateway.md,
// "Failover and cooldown"). Decides when a provider enters cooldown; the engine decides what that means
// for routing.

import type { Clock, TimerHandle } from './clock';

/** Outcomes older than this no longer count (docs/gateway.md: a sliding 60-second window). */
export const COOLDOWN_WINDOW_MS = 60_000;

export interface CooldownSettings {
  cooldownDefaultMs: number;
  cooldownFailureThreshold: number;
  cooldownMinRequestVolume: number;
}

interface ProviderWindow {
  /** outcome times and results, oldest first; entries before `head` are expired */
  at: number[];
  ok: boolean[];
  head: number;
  failures: number;
  cooldownUntil: number | null;
  timer: TimerHandle | null;
}

/**
 * Rules (the spec is silent on the last three; these are the choices):
 * - The window is (now - 60 s, now]: an outcome exactly 60 s old has expired.
 * - Cooldown starts when attempts >= minRequestVolume and failures/attempts > threshold
 *   (strictly above: a 50% rate with threshold 0.5 does not trigger; threshold 1 never can).
 * - cooldownDefaultMs 0 disables cooldown entirely.
 * - Entering cooldown clears the window, so re-entry needs the threshold exceeded again by new
 *   outcomes, not by the failures that caused the first cooldown.
 * - Outcomes that arrive while cooling (attempts already in flight when it started) are ignored:
 *   they describe the provider before the cooldown and must not extend or re-trigger it.
 */
export class CooldownTracker {
  private readonly windows = new Map<string, ProviderWindow>();
  private settings: CooldownSettings;

  /**
   * `onEnded` fires (from a clock timer) when a cooldown is over, so waiters can be woken.
   * `decides: false` is for several proxies sharing providers: outcomes are counted where all of
   * them are (proxy/cluster/), and cooldowns arrive from there through enter().
   */
  constructor(
    private readonly clock: Clock,
    settings: CooldownSettings,
    private readonly onEnded: (providerId: string) => void,
    private readonly decides = true,
  ) {
    this.settings = { ...settings };
  }

  configure(settings: CooldownSettings): void {
    // A running cooldown keeps its end time; new settings apply to the next evaluation.
    this.settings = { ...settings };
  }

  /** Records one attempt. Returns the cooldown length if this outcome started a cooldown. */
  record(providerId: string, ok: boolean): number | null {
    if (!this.decides) return null;
    const now = this.clock.now();
    const w = this.window(providerId);
    if (this.isCooling(providerId)) return null;
    this.expire(w, now);
    w.at.push(now);
    w.ok.push(ok);
    if (!ok) w.failures++;

    const { cooldownDefaultMs, cooldownFailureThreshold, cooldownMinRequestVolume } = this.settings;
    const attempts = w.at.length - w.head;
    if (cooldownDefaultMs <= 0) return null;
    if (attempts < cooldownMinRequestVolume) return null;
    if (!(w.failures / attempts > cooldownFailureThreshold)) return null;

    this.start(providerId, w, now + cooldownDefaultMs);
    return cooldownDefaultMs;
  }

  /**
   * A cooldown decided elsewhere (another proxy, or the shared failure count): runs until `until`
   * unless one already runs at least that long. Returns whether it started or was extended.
   */
  enter(providerId: string, until: number): boolean {
    const running = this.cooldownUntil(providerId);
    if (running !== null && running >= until) return false;
    if (until <= this.clock.now()) return false;
    this.start(providerId, this.window(providerId), until);
    return true;
  }

  private start(providerId: string, w: ProviderWindow, until: number): void {
    this.reset(w);
    w.cooldownUntil = until;
    w.timer = this.clock.setTimer(() => {
      w.timer = null;
      this.onEnded(providerId);
    }, until - this.clock.now());
  }

  /** Computed from the time, not from the timer, so a late timer never extends a cooldown. */
  isCooling(providerId: string): boolean {
    return this.cooldownUntil(providerId) !== null;
  }

  /** End of the running cooldown, or null when the provider is in the pool. */
  cooldownUntil(providerId: string): number | null {
    const until = this.windows.get(providerId)?.cooldownUntil ?? null;
    return until !== null && this.clock.now() < until ? until : null;
  }

  /** Attempts and failures currently inside the window (for status and tests). */
  windowCounts(providerId: string): { attempts: number; failures: number } {
    const w = this.windows.get(providerId);
    if (!w) return { attempts: 0, failures: 0 };
    this.expire(w, this.clock.now());
    return { attempts: w.at.length - w.head, failures: w.failures };
  }

  /** Forget one provider's outcomes and end its cooldown (its configuration changed). */
  forget(providerId: string): void {
    const w = this.windows.get(providerId);
    if (w?.timer) this.clock.clearTimer(w.timer);
    this.windows.delete(providerId);
  }

  /** Forget providers no longer configured (and stop their timers). */
  retain(ids: ReadonlySet<string>): void {
    for (const [id, w] of this.windows) {
      if (ids.has(id)) continue;
      if (w.timer) this.clock.clearTimer(w.timer);
      this.windows.delete(id);
    }
  }

  dispose(): void {
    this.retain(new Set());
  }

  private window(providerId: string): ProviderWindow {
    let w = this.windows.get(providerId);
    if (!w) {
      w = { at: [], ok: [], head: 0, failures: 0, cooldownUntil: null, timer: null };
      this.windows.set(providerId, w);
    }
    return w;
  }

  private expire(w: ProviderWindow, now: number): void {
    while (w.head < w.at.length && w.at[w.head]! <= now - COOLDOWN_WINDOW_MS) {
      if (!w.ok[w.head]) w.failures--;
      w.head++;
    }
    // Compact now and then so a busy provider's arrays do not grow without bound.
    if (w.head > 1024 && w.head * 2 > w.at.length) {
      w.at = w.at.slice(w.head);
      w.ok = w.ok.slice(w.head);
      w.head = 0;
    }
  }

  private reset(w: ProviderWindow): void {
    w.at = [];
    w.ok = [];
    w.head = 0;
    w.failures = 0;
    if (w.timer) this.clock.clearTimer(w.timer);
    w.timer = null;
  }
}
