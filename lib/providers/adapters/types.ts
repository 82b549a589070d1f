// The interface the connect path (issue 4) calls for key-based providers: one module per vendor,
// each modelled on that vendor's public REST API (docs/vendors.md).
import type { AdapterKind } from '../schemas';

export interface VendorCredentials {
  apiKey: string;
}

export interface CreatedSession {
  /** ws(s) address of the vendor browser for the relay to connect to. */
  connectUrl: string;
  vendorSessionId: string;
  /** True when a browser kept after an earlier session was handed out again. */
  reused: boolean;
}

export interface SessionRef {
  vendorSessionId: string;
  connectUrl: string;
  /** What a reconnect presents to reuse a kept browser (adapter-one); defaults to vendorSessionId. */
  reuseKey?: string;
}

export type ReleaseReason = 'disconnect' | 'close' | 'error';

export interface ReleaseResult {
  /** The vendor browser was stopped now. */
  stopped: boolean;
  /** Unix ms until which the browser is kept for a reconnect, then stopped. */
  keptUntil: number | null;
}

export interface VendorAdapter<Options> {
  readonly kind: AdapterKind;
  /** The vendor's name, shown by verify-key. */
  readonly displayName: string;
  /** Checks the key with a read-only vendor call: never starts (or bills) a browser. */
  verifyKey(credentials: VendorCredentials): Promise<{ displayName: string }>;
  createSession(credentials: VendorCredentials, options: Options, context?: { reuseKey?: string }): Promise<CreatedSession>;
  /** Applies the vendor's end-of-session rule (docs/api.md, key form table). */
  releaseSession(credentials: VendorCredentials, session: SessionRef, reason: ReleaseReason): Promise<ReleaseResult>;
  /** Stops every browser the adapter still keeps (process shutdown). */
  shutdown(): Promise<void>;
}

/** Why a vendor call failed: the key was refused, the vendor could not be reached, or it said no. */
export class VendorError extends Error {
  constructor(
    readonly kind: 'rejected_key' | 'unreachable' | 'failed',
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'VendorError';
  }
}

/** Time as a dependency, so the 15-minute keep rule is tested with a fake clock (proxy/engine/clock fits). */
export interface Timers {
  now(): number;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

export const systemTimers: Timers = {
  now: () => Date.now(),
  setTimer(fn, ms) {
    const timer = setTimeout(fn, ms);
    timer.unref(); // a kept browser must not hold a draining process open; shutdown() stops it
    return timer;
  },
  clearTimer: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
