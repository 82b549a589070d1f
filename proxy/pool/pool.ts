// The pool's state: capacity, calibration (one warm-up browser before the first session), live
// sessions, prepared IndexedDB uploads, end-of-session snapshots and kept downloads, and an orderly stop.
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import type { Logger } from '../../lib/log';
import { egressPolicy, type EgressPolicy } from '../../lib/net/egress-policy';
import { launchChromium, type Browser } from './browser';
import type { PoolConfig } from './config';
import { startEgressProxy, type EgressProxy } from './egress-proxy';
import { ExpiringMap } from './expiring';
import { chownTree, detectIsolation, type Isolation } from './sandbox';
import { Session, type Snapshot } from './session';
import { discardDownloads, type KeptDownloads } from './downloads';
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
  /** What confines the browsers (README.md, "Isolation"): `bwrap+uid+chromium-sandbox`, …, `none`. */
  isolation: string | null;
  error?: string;
}

/** A session's snapshot, handed out only with the key its session's 101 carried. */
export interface StoredSnapshot {
  key: string;
  snapshot: Snapshot;
}

export interface PoolOptions {
  /** The egress policy pages are held to (default: this process's, from PRIVATE_NETWORK). */
  egressPolicy?: EgressPolicy;
}

/** `full`: refused for capacity alone (the answer carries `X-Pool-Full: 1`, README.md). */
export type Admission = { refused: { status: number; message: string; full?: boolean } } | { session: Session; prepared?: TarEntry[] };

const RETRY_MIN_MS = 2_000;
const RETRY_MAX_MS = 60_000;

export class BrowserPool {
  readonly sessions = new Map<string, Session>();
  readonly prepared: ExpiringMap<TarEntry[]>;
  readonly snapshots: ExpiringMap<StoredSnapshot>;
  /** Finished sessions' downloads, until collected or expired (downloads.ts). */
  readonly downloads: ExpiringMap<KeptDownloads>;
  readonly policy: EgressPolicy;
  chromeVersion?: ChromeVersion;
  isolation?: Isolation;
  egress?: EgressProxy;
  /** Browser slots in use: slot n runs as uid uidBase + n. Sessions that are closing keep theirs. */
  private readonly slotsInUse = new Set<number>();
  private readonly ownPorts: number[] = [];
  private launchMs: number | null = null;
  private calibrationError?: string;
  private calibrated = false;
  private stopping = false;
  private workDir?: WorkDir;
  private retryTimer?: NodeJS.Timeout;
  private retryDelay = RETRY_MIN_MS;
  private calibration?: Promise<void>;
  private readonly calibrationAbort = new AbortController();

  constructor(
    readonly config: PoolConfig,
    readonly log: Logger,
    options: PoolOptions = {},
  ) {
    this.prepared = new ExpiringMap(config.archiveTtlMs);
    this.snapshots = new ExpiringMap(config.archiveTtlMs);
    this.downloads = new ExpiringMap(config.archiveTtlMs, (kept) => void discardDownloads(kept));
    this.policy = options.egressPolicy ?? egressPolicy();
  }

  /** One uid per browser: the sessions the capacity allows, as many closing, and the warm-up browser. */
  get slotCount(): number {
    return this.config.capacity * 2 + 1;
  }

  /**
   * Cleans up after a previous run, starts the egress proxy, finds out what isolation this machine
   * allows (throws when it cannot isolate and POOL_ISOLATION=none does not say so), and starts
   * calibrating in the background.
   */
  async start(): Promise<void> {
    this.workDir = await createWorkDir(this.config.dataDir, this.log);
    try {
      this.egress = await startEgressProxy({ policy: this.policy, log: this.log.child({ component: 'egress' }) });
      this.addInternalPort(this.egress.port);
      if (this.config.port !== 0) this.addInternalPort(this.config.port);
      this.isolation = await detectIsolation({
        setting: this.config.isolation,
        uidBase: this.config.uidBase,
        slots: this.slotCount,
        chromiumPath: this.config.chromiumPath,
        dataDir: this.config.dataDir,
        runDir: this.workDir.runDir,
        proxyUrl: this.egress.url,
      });
    } catch (error) {
      await this.egress?.close();
      this.removeInternalPorts();
      await this.workDir.remove();
      throw error;
    }
    const { level, uidBase, notes } = this.isolation;
    const fields = {
      isolation: level,
      ...(uidBase !== undefined ? { uids: `${uidBase}-${uidBase + this.slotCount - 1}` } : {}),
      egressProxy: this.egress.url,
      privateNetwork: this.policy.privateNetwork,
    };
    // Everything this machine could give is on when there is nothing to explain; else say what is missing.
    if (notes.length === 0) this.log.info(fields, `sandbox: ${level}`);
    else this.log.warn({ ...fields, notes }, `sandbox: ${level}`);
    this.calibration = this.calibrate();
  }

  /** A port of this service: refused to every page, whatever PRIVATE_NETWORK says. */
  addInternalPort(port: number): void {
    if (this.policy.internalPorts.has(port)) return;
    this.policy.internalPorts.add(port);
    this.ownPorts.push(port);
  }

  private removeInternalPorts(): void {
    for (const port of this.ownPorts.splice(0)) this.policy.internalPorts.delete(port);
  }

  /**
   * Launches a browser for `userDataDir` in `slot`: the directory is handed to the slot's uid, the
   * browser starts confined and behind the egress proxy, and its DevTools port is refused to every
   * page (no page reaches another browser's DevTools) until it has stopped.
   */
  async launch(userDataDir: string, slot: number, signal?: AbortSignal): Promise<Browser> {
    const isolation = this.isolation!;
    const uid = isolation.uidBase !== undefined ? isolation.uidBase + slot : undefined;
    await mkdir(userDataDir, { recursive: true, mode: 0o700 });
    if (uid !== undefined) await chownTree(userDataDir, uid);
    const browser = await launchChromium({
      executable: this.config.chromiumPath,
      userDataDir,
      timeoutMs: this.config.launchTimeoutMs,
      signal,
      isolation,
      uid,
      proxyUrl: this.egress!.url,
    });
    const port = browser.devtoolsPort;
    const added = !this.policy.internalPorts.has(port);
    if (added) this.policy.internalPorts.add(port);
    let stopped: Promise<void> | undefined;
    return {
      ...browser,
      stop: (graceMs) =>
        (stopped ??= browser.stop(graceMs).finally(() => {
          if (added) this.policy.internalPorts.delete(port);
        })),
    };
  }

  private takeSlot(): number | undefined {
    const slot = Array.from({ length: this.slotCount }, (_, i) => i).find((i) => !this.slotsInUse.has(i));
    if (slot !== undefined) this.slotsInUse.add(slot);
    return slot;
  }

  /** The key a snapshot is handed out with: its session's, while it runs or while its snapshot is kept. */
  snapshotKey(id: string): string | undefined {
    return this.sessions.get(id)?.snapshotKey ?? this.snapshots.get(id)?.key ?? this.downloads.get(id)?.key;
  }

  get active(): number {
    return [...this.sessions.values()].filter((s) => s.state === 'launching' || s.state === 'open').length;
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
      isolation: this.isolation?.level ?? null,
      ...(this.calibrationError && !this.calibrated ? { error: this.calibrationError } : {}),
    };
  }

  /** Decides on an upgrade before anything is launched; reserves the slot when admitted. */
  admit(prepareId: string | null): Admission {
    if (this.stopping) return { refused: { status: 503, message: 'pool shutting down' } };
    if (!this.calibrated)
      return { refused: { status: 503, message: this.calibrationError ? `pool calibrating: ${this.calibrationError}` : 'pool calibrating' } };
    if (this.active >= this.config.capacity) return { refused: { status: 503, message: `pool at capacity (${this.config.capacity} sessions)`, full: true } };
    if (this.slotsInUse.size >= this.slotCount)
      return {
        refused: { status: 503, message: `pool at capacity (${this.config.capacity} sessions, ${this.sessions.size - this.active} still closing)`, full: true },
      };
    let prepared: TarEntry[] | undefined;
    if (prepareId !== null) {
      prepared = this.prepared.take(prepareId);
      if (!prepared) return { refused: { status: 400, message: 'unknown or expired prepare id' } };
    }
    const slot = this.takeSlot()!;
    const session = new Session({
      config: this.config,
      runDir: this.workDir!.runDir,
      log: this.log,
      slot,
      launch: (userDataDir, signal) => this.launch(userDataDir, slot, signal),
      saveSnapshot: (id, key, snapshot) => this.snapshots.set(id, { key, snapshot }),
      saveDownloads: (id, kept) => this.downloads.set(id, kept),
    });
    this.sessions.set(session.id, session);
    void session.done.then(() => {
      this.sessions.delete(session.id);
      this.slotsInUse.delete(slot);
    });
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
  async snapshotOf(id: string, waitMs: number): Promise<StoredSnapshot | 'running' | undefined> {
    return (await this.ended(id, waitMs)) ? this.snapshots.get(id) : 'running';
  }

  /** A finished session's downloads (none: an empty list), waiting as snapshotOf does. */
  async downloadsOf(id: string, waitMs: number): Promise<KeptDownloads | { files: [] } | 'running'> {
    return (await this.ended(id, waitMs)) ? (this.downloads.get(id) ?? { files: [] }) : 'running';
  }

  /** Whether the session has ended, waiting up to `waitMs` for one that is still ending. */
  private async ended(id: string, waitMs: number): Promise<boolean> {
    const live = this.sessions.get(id);
    let timer: NodeJS.Timeout | undefined;
    if (live) await Promise.race([live.done, new Promise((r) => (timer = setTimeout(r, waitMs)))]);
    clearTimeout(timer);
    return !this.sessions.has(id);
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
    this.downloads.clear();
    await this.egress?.close();
    this.removeInternalPorts();
    await this.workDir?.remove();
  }

  private async calibrate(): Promise<void> {
    const userDataDir = path.join(this.workDir!.runDir, `calibration-${randomBytes(4).toString('hex')}`);
    const slot = this.takeSlot()!; // before any session: calibration admits none
    try {
      const browser = await this.launch(userDataDir, slot, this.calibrationAbort.signal);
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
      this.log.info(
        { launchMs: this.launchMs, browser: this.chromeVersion.Browser, capacity: this.config.capacity, isolation: this.isolation!.level },
        'pool ready',
      );
    } catch (error) {
      if (this.stopping) return;
      this.calibrationError = (error as Error).message;
      this.log.error({ err: this.calibrationError, retryInMs: this.retryDelay }, 'warm-up browser failed; the pool stays calibrating');
      this.retryTimer = setTimeout(() => (this.calibration = this.calibrate()), this.retryDelay);
      this.retryDelay = Math.min(this.retryDelay * 2, RETRY_MAX_MS);
    } finally {
      await rm(userDataDir, { recursive: true, force: true });
      this.slotsInUse.delete(slot);
    }
  }
}
