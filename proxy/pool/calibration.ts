// The pool's calibration: one warm-up browser before the first session, which tells the pool
// Chrome's /json/version and how long a launch takes. Until it has worked the pool admits no
// session; a failure is reported and tried again with a growing delay. The pool (pool.ts) lends
// it a slot and launches its browser there (slot-browser.ts).
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../lib/log';
import type { Browser } from './browser';
import type { PoolConfig } from './config';

/** Chrome's own /json/version fields, learned from the warm-up browser. */
export interface ChromeVersion {
  Browser: string;
  'Protocol-Version': string;
  'User-Agent': string;
  'V8-Version'?: string;
  'WebKit-Version'?: string;
}

/** What calibration asks of its pool. */
export interface CalibrationHost {
  readonly config: PoolConfig;
  readonly log: Logger;
  /** The pool's run directory, where the warm-up browser's profile goes. */
  runDir(): string;
  /** The isolation level the browsers run with (for the log). */
  isolationLevel(): string;
  takeSlot(): number;
  releaseSlot(slot: number): void;
  launch(userDataDir: string, slot: number, signal?: AbortSignal): Promise<Browser>;
}

const RETRY_MIN_MS = 2_000;
const RETRY_MAX_MS = 60_000;

export class Calibration {
  chromeVersion?: ChromeVersion;
  launchMs: number | null = null;
  /** Why the last warm-up failed; cleared once one has worked. */
  error?: string;
  calibrated = false;
  private stopped = false;
  private retryTimer?: NodeJS.Timeout;
  private retryDelay = RETRY_MIN_MS;
  private running?: Promise<void>;
  private readonly abort = new AbortController();

  constructor(private readonly host: CalibrationHost) {}

  /** Starts calibrating in the background. */
  start(): void {
    this.running = this.calibrate();
  }

  /** Stops retrying and aborts a warm-up under way; `done` then settles. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.abort.abort();
  }

  /** The warm-up under way (or the last one). */
  get done(): Promise<void> | undefined {
    return this.running;
  }

  private async calibrate(): Promise<void> {
    const { config, log } = this.host;
    const userDataDir = path.join(this.host.runDir(), `calibration-${randomBytes(4).toString('hex')}`);
    const slot = this.host.takeSlot(); // before any session: calibration admits none
    try {
      const browser = await this.host.launch(userDataDir, slot, this.abort.signal);
      try {
        const { host } = new URL(browser.wsUrl);
        const res = await fetch(`http://${host}/json/version`, { signal: AbortSignal.timeout(10_000) });
        if (!res.ok) throw new Error(`the warm-up browser answered /json/version with ${res.status}`);
        this.chromeVersion = (await res.json()) as ChromeVersion;
        this.launchMs = browser.launchMs;
      } finally {
        await browser.stop(config.killGraceMs);
      }
      this.calibrated = true;
      this.error = undefined;
      log.info(
        { launchMs: this.launchMs, browser: this.chromeVersion.Browser, capacity: config.capacity, isolation: this.host.isolationLevel() },
        'pool ready',
      );
    } catch (error) {
      if (this.stopped) return;
      this.error = (error as Error).message;
      log.error({ err: this.error, retryInMs: this.retryDelay }, 'warm-up browser failed; the pool stays calibrating');
      this.retryTimer = setTimeout(() => (this.running = this.calibrate()), this.retryDelay);
      this.retryDelay = Math.min(this.retryDelay * 2, RETRY_MAX_MS);
    } finally {
      await rm(userDataDir, { recursive: true, force: true });
      this.host.releaseSlot(slot);
    }
  }
}
