// The pool's state: capacity, calibration (one warm-up browser before the first session), live
// sessions, prepared IndexedDB uploads and end-of-session snapshots, and an orderly stop.
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import type { Logger } from '../../lib/log';
import { launchChromium } from './browser';
import type { PoolConfig } from './config';
import { ExpiringMap } from './expiring';
import { Session, type Snapshot } from './session';
import type { TarEntry } from './tar';
import { createWorkDir, type WorkDir } from './workdir';

/** Chrome's own /json/version fields, learned from the warm-up browser. */
export interface ChromeVersion {
  Browser: string;
  'Protocol-Version': string;
  'User-Agent': string;
  'V8-Version'?: string;
  'WebKit-Version'?: string;
}

export interface PoolStatus {
  kind: 'managed';
  version: 1;
  capacity: number;
  active: number;
  calibrating: boolean;
  indexedDb: true;
  /** Sessions whose client has left and whose browser is being stopped; not counted in `active`. */
  closing: number;
  launchMs: number | null;
  browser: string | null;
  error?: string;
}

export type Admission = { refused: { status: number; message: string } } | { session: Session; prepared?: TarEntry[] };

const RETRY_MIN_MS = 2_000;
const RETRY_MAX_MS = 60_000;

export class BrowserPool {
  readonly sessions = new Map<string, Session>();
  readonly prepared: ExpiringMap<TarEntry[]>;
  readonly snapshots: ExpiringMap<Snapshot>;
  chromeVersion?: ChromeVersion;
  private launchMs: number | null = null;
  private calibrationError?: string;
  private calibrated = false;
  private stopping = false;
  private workDir?: WorkDir;
  private retryTimer?: NodeJS.Timeout;
  private retryDelay = RETRY_MIN_MS;
  private calibration?: Promise<void>;
  private readonly calibrationAbort = new AbortController();

  constructor(readonly config: PoolConfig, readonly log: Logger) {
    this.prepared = new ExpiringMap(config.archiveTtlMs);
    this.snapshots = new ExpiringMap(config.archiveTtlMs);
  }

  /** Cleans up after a previous run and starts calibrating in the background. */
  async start(): Promise<void> {
    this.workDir = await createWorkDir(this.config.dataDir, this.log);
    this.calibration = this.calibrate();
  }

  get active(): number {
    let n = 0;
    for (const s of this.sessions.values()) if (s.state === 'launching' || s.state === 'open') n++;
    return n;
  }

  status(): PoolStatus {
    return {
      kind: 'managed',
      version: 1,
      capacity: this.config.capacity,
      active: this.active,
      calibrating: !this.calibrated,
      indexedDb: true,
      closing: this.sessions.size - this.active,
      launchMs: this.launchMs,
      browser: this.chromeVersion?.Browser ?? null,
      ...(this.calibrationError && !this.calibrated ? { error: this.calibrationError } : {}),
    };
  }

  /** Decides on an upgrade before anything is launched; reserves the slot when admitted. */
  admit(prepareId: string | null): Admission {
    if (this.stopping) return { refused: { status: 503, message: 'pool shutting down' } };
    if (!this.calibrated) return { refused: { status: 503, message: this.calibrationError ? `pool calibrating: ${this.calibrationError}` : 'pool calibrating' } };
    if (this.active >= this.config.capacity) return { refused: { status: 503, message: `pool at capacity (${this.config.capacity} sessions)` } };
    let prepared: TarEntry[] | undefined;
    if (prepareId !== null) {
      prepared = this.prepared.take(prepareId);
      if (!prepared) return { refused: { status: 400, message: 'unknown or expired prepare id' } };
    }
    const session = new Session({
      config: this.config,
      runDir: this.workDir!.runDir,
      log: this.log,
      saveSnapshot: (id, snapshot) => this.snapshots.set(id, snapshot),
    });
    this.sessions.set(session.id, session);
    void session.done.then(() => this.sessions.delete(session.id));
    return { session, prepared };
  }

  run(admitted: { session: Session; prepared?: TarEntry[] }, req: IncomingMessage, socket: Duplex, head: Buffer): void {
    void admitted.session.run(req, socket, head, admitted.prepared);
  }

  prepare(entries: TarEntry[]): string {
    const id = randomUUID();
    this.prepared.set(id, entries);
    return id;
  }

  get maxPrepared(): number {
    return this.config.capacity * 2 + 8;
  }

  /** The snapshot of a session, waiting (up to `waitMs`) for a session that is still ending. */
  async snapshotOf(id: string, waitMs: number): Promise<Snapshot | 'running' | undefined> {
    const live = this.sessions.get(id);
    if (live) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([live.done, new Promise((r) => (timer = setTimeout(r, waitMs)))]);
      clearTimeout(timer);
      if (this.sessions.has(id)) return 'running';
    }
    return this.snapshots.get(id);
  }

  /** Closes every session (clients get 1001), stops every browser, removes the run directory. */
  async close(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    clearTimeout(this.retryTimer);
    this.calibrationAbort.abort();
    for (const session of this.sessions.values()) session.shutdown();
    await Promise.all([this.calibration, ...[...this.sessions.values()].map((s) => s.done)]);
    this.prepared.clear();
    this.snapshots.clear();
    await this.workDir?.remove();
  }

  private async calibrate(): Promise<void> {
    const userDataDir = path.join(this.workDir!.runDir, `calibration-${randomBytes(4).toString('hex')}`);
    try {
      const browser = await launchChromium({ executable: this.config.chromiumPath, userDataDir, timeoutMs: this.config.launchTimeoutMs, signal: this.calibrationAbort.signal });
      try {
        const { host } = new URL(browser.wsUrl);
        const res = await fetch(`http://${host}/json/version`, { signal: AbortSignal.timeout(10_000) });
        if (!res.ok) throw new Error(`the warm-up browser answered /json/version with ${res.status}`);
        this.chromeVersion = (await res.json()) as ChromeVersion;
        this.launchMs = browser.launchMs;
      } finally {
        await browser.stop(this.config.killGraceMs);
      }
      this.calibrated = true;
      this.calibrationError = undefined;
      this.log.info({ launchMs: this.launchMs, browser: this.chromeVersion.Browser, capacity: this.config.capacity }, 'pool ready');
    } catch (error) {
      if (this.stopping) return;
      this.calibrationError = (error as Error).message;
      this.log.error({ err: this.calibrationError, retryInMs: this.retryDelay }, 'warm-up browser failed; the pool stays calibrating');
      this.retryTimer = setTimeout(() => (this.calibration = this.calibrate()), this.retryDelay);
      this.retryDelay = Math.min(this.retryDelay * 2, RETRY_MAX_MS);
    } finally {
      await rm(userDataDir, { recursive: true, force: true });
    }
  }
}
