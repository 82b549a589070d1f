// The pool's state: capacity and browser slots (a slot's browser: slot-browser.ts), calibration
// (one warm-up browser before the first session: calibration.ts), live sessions, prepared IndexedDB
// uploads, end-of-session snapshots and kept downloads, and an orderly stop.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '../../lib/log';
import { egressPolicy, type EgressPolicy } from '../../lib/net/egress-policy';
import type { Browser } from './browser';
import { Calibration, type ChromeVersion } from './calibration';
import type { PoolConfig } from './config';
import { startEgressProxy, type EgressProxy } from './egress-proxy';
import { ExpiringMap } from './expiring';
import { detectIsolation, type Isolation } from './sandbox';
import { Session, type Snapshot } from './session';
import { launchInSlot } from './slot-browser';
import { discardDownloads, type KeptDownloads } from './downloads';
import type { TarEntry } from './tar';
import { createWorkDir, type WorkDir } from './workdir';

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

export class BrowserPool {
  readonly sessions = new Map<string, Session>();
  readonly prepared: ExpiringMap<TarEntry[]>;
  readonly snapshots: ExpiringMap<StoredSnapshot>;
  /** Finished sessions' downloads, until collected or expired (downloads.ts). */
  readonly downloads: ExpiringMap<KeptDownloads>;
  readonly policy: EgressPolicy;
  isolation?: Isolation;
  egress?: EgressProxy;
  /** Browser slots in use: slot n runs as uid uidBase + n. Sessions that are closing keep theirs. */
  private readonly slotsInUse = new Set<number>();
  private readonly ownPorts: number[] = [];
  private readonly calibration: Calibration;
  private stopping = false;
  private workDir?: WorkDir;

  constructor(
    readonly config: PoolConfig,
    readonly log: Logger,
    options: PoolOptions = {},
  ) {
    this.prepared = new ExpiringMap(config.archiveTtlMs);
    this.snapshots = new ExpiringMap(config.archiveTtlMs);
    this.downloads = new ExpiringMap(config.archiveTtlMs, (kept) => void discardDownloads(kept));
    this.policy = options.egressPolicy ?? egressPolicy();
    this.calibration = new Calibration({
      config,
      log,
      runDir: () => this.workDir!.runDir,
      isolationLevel: () => this.isolation!.level,
      takeSlot: () => this.takeSlot()!,
      releaseSlot: (slot) => this.slotsInUse.delete(slot),
      launch: (userDataDir, slot, signal) => this.launch(userDataDir, slot, signal),
    });
  }

  /** Chrome's /json/version, once the warm-up browser has answered (calibration.ts). */
  get chromeVersion(): ChromeVersion | undefined {
    return this.calibration.chromeVersion;
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
    this.calibration.start();
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

  /** A browser for `userDataDir` in `slot`: confined, behind the egress proxy (slot-browser.ts). */
  launch(userDataDir: string, slot: number, signal?: AbortSignal): Promise<Browser> {
    return launchInSlot({ config: this.config, isolation: this.isolation!, egress: this.egress!, policy: this.policy }, userDataDir, slot, signal);
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
    const { calibrated, launchMs, error } = this.calibration;
    return {
      kind: 'managed',
      version: 1,
      capacity: this.config.capacity,
      active: this.active,
      calibrating: !calibrated,
      indexedDb: true,
      closing: this.sessions.size - this.active,
      launchMs,
      browser: this.chromeVersion?.Browser ?? null,
      isolation: this.isolation?.level ?? null,
      ...(error && !calibrated ? { error } : {}),
    };
  }

  /** Decides on an upgrade before anything is launched; reserves the slot when admitted. */
  admit(prepareId: string | null): Admission {
    if (this.stopping) return { refused: { status: 503, message: 'pool shutting down' } };
    const { calibrated, error } = this.calibration;
    if (!calibrated) return { refused: { status: 503, message: error ? `pool calibrating: ${error}` : 'pool calibrating' } };
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
    this.calibration.stop();
    for (const session of this.sessions.values()) session.shutdown();
    await Promise.all([this.calibration.done, ...[...this.sessions.values()].map((s) => s.done)]);
    this.prepared.clear();
    this.snapshots.clear();
    this.downloads.clear();
    await this.egress?.close();
    this.removeInternalPorts();
    await this.workDir?.remove();
  }
}
