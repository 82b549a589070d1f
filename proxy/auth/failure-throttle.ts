// Failed router-key attempts per client address. After FAILURES_PER_WINDOW failures within the
// window the address is throttled until the window moves on: its *failed* attempts get 429, but a
// valid key from it still works (a shared NAT or a user's own typo must not lock everyone out).
// gate() decides, before any database access, whether an attempt's key may be looked up at all,
// so that a throttled address flooding bad keys does not reach the database:
// - no key, or one that is not shaped like a router key: never looked up (throttled or not);
// - a key whose SHA-256 already failed from this address: not looked up while throttled;
// - a key that passed recently (from any address; the last PASSED_KEYS of them): looked up (it is
//   probably valid; the lookup is what keeps a revoked key from passing);
// - any other key while throttled: looked up only within a small per-address budget
//   (THROTTLED_LOOKUP_BURST, refilled at THROTTLED_LOOKUPS_PER_SECOND); beyond it, 429 at once.
// Pure: the clock is passed in.

export const FAILURES_PER_WINDOW = 10;
export const FAILURE_WINDOW_MS = 60_000;
/** Lookups of not-yet-seen keys a throttled address may make in a burst… */
export const THROTTLED_LOOKUP_BURST = 2;
/** …and per second after that. */
export const THROTTLED_LOOKUPS_PER_SECOND = 1;
/** Hashes of failed keys remembered per address; oldest forgotten first. */
const FAILED_KEYS_PER_ADDRESS = 16;
/** Hashes of keys that passed, process-wide; least recently used forgotten first. */
const PASSED_KEYS = 10_000;
const MAX_ADDRESSES = 10_000;

export interface ThrottleOptions {
  limit?: number;
  windowMs?: number;
  lookupBurst?: number;
  lookupsPerSecond?: number;
}

export interface Gate {
  /** Seconds until the address is no longer throttled; 0 when it is not. */
  blockedFor: number;
  /** Whether the key may be looked up in the database. */
  lookup: boolean;
}

interface AddressState {
  /** Times of the most recent failures (at most `limit`), oldest first. */
  failures: number[];
  /** SHA-256 → time of its last failure from this address (Map order: least recent first). */
  failedKeys: Map<string, number>;
  tokens: number;
  tokensAt: number;
}

export class FailureThrottle {
  private readonly addresses = new Map<string, AddressState>();
  /** SHA-256 → time it last passed (Map order: least recent first). */
  private readonly passedKeys = new Map<string, number>();
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly lookupBurst: number;
  private readonly lookupsPerSecond: number;

  constructor(limit = FAILURES_PER_WINDOW, windowMs = FAILURE_WINDOW_MS, options: Omit<ThrottleOptions, 'limit' | 'windowMs'> = {}) {
    this.limit = limit;
    this.windowMs = windowMs;
    this.lookupBurst = options.lookupBurst ?? THROTTLED_LOOKUP_BURST;
    this.lookupsPerSecond = options.lookupsPerSecond ?? THROTTLED_LOOKUPS_PER_SECOND;
  }

  /** Seconds until the address may fail again without a 429, or 0 when it is not throttled. */
  blockedFor(ip: string, now: number): number {
    const recent = this.recent(ip, now);
    if (recent.length < this.limit) return 0;
    return Math.max(1, Math.ceil((recent[recent.length - this.limit]! + this.windowMs - now) / 1000));
  }

  /**
   * Called before the lookup. `keyHash` is null when the request carried no well-formed key.
   * Taking a lookup from the budget is part of the decision, so call it once per attempt.
   */
  gate(ip: string, keyHash: string | null, now: number): Gate {
    const blockedFor = this.blockedFor(ip, now);
    if (keyHash === null) return { blockedFor, lookup: false };
    if (blockedFor === 0) return { blockedFor, lookup: true };
    const state = this.addresses.get(ip)!;
    if (state.failedKeys.has(keyHash)) return { blockedFor, lookup: false };
    if (this.passedKeys.has(keyHash)) return { blockedFor, lookup: true };
    state.tokens = Math.min(this.lookupBurst, state.tokens + ((now - state.tokensAt) / 1000) * this.lookupsPerSecond);
    state.tokensAt = now;
    if (state.tokens < 1) return { blockedFor, lookup: false };
    state.tokens -= 1;
    return { blockedFor, lookup: true };
  }

  /** A failed key check (`keyHash` when the key was well-formed, so a repeat is recognised). */
  recordFailure(ip: string, now: number, keyHash: string | null = null): void {
    let state = this.addresses.get(ip);
    if (!state) {
      if (this.addresses.size >= MAX_ADDRESSES) this.prune(now);
      state = { failures: [], failedKeys: new Map(), tokens: this.lookupBurst, tokensAt: now };
      this.addresses.set(ip, state);
    }
    state.failures = [...state.failures.filter((t) => now - t < this.windowMs), now].slice(-this.limit);
    if (keyHash !== null) {
      // It was looked up and is not valid (anywhere): revoked, if it ever passed.
      this.passedKeys.delete(keyHash);
      remember(state.failedKeys, keyHash, now, FAILED_KEYS_PER_ADDRESS);
    }
  }

  /** A key that passed: from now on it skips a throttled address's lookup budget. */
  recordSuccess(ip: string, now: number, keyHash: string): void {
    this.addresses.get(ip)?.failedKeys.delete(keyHash);
    remember(this.passedKeys, keyHash, now, PASSED_KEYS);
  }

  /** Addresses tracked (tests). */
  get size(): number {
    return this.addresses.size;
  }

  private recent(ip: string, now: number): number[] {
    return (this.addresses.get(ip)?.failures ?? []).filter((t) => now - t < this.windowMs);
  }

  /** Addresses whose failures all left the window have nothing left worth keeping. */
  private prune(now: number): void {
    for (const [ip, state] of this.addresses) if (state.failures.every((t) => now - t >= this.windowMs)) this.addresses.delete(ip);
  }
}

function remember(keys: Map<string, number>, keyHash: string, now: number, max: number): void {
  keys.delete(keyHash);
  keys.set(keyHash, now);
  if (keys.size > max) keys.delete(keys.keys().next().value!);
}
