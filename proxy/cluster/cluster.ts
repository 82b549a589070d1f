// This proxy's place among the proxies sharing one database (docs/deployment.md): a row per run
// with a heartbeat, the run's provider leases renewed with it, and the sweeps any proxy does for
// the others: reclaiming leases nobody renews and settling the sessions of a run that stopped.
import { randomBytes } from 'node:crypto';
import type { BlobStore } from '../../lib/blobs';
import { settings } from '../../lib/config/settings';
import { db } from '../../lib/db';
import { log } from '../../lib/log';
import { settleOrphanedRecordings } from '../../lib/recordings/settle-orphans';
import { settleOrphanedTraces } from '../../lib/traces/settle-orphans';
import { concurrencyLimit, type CooldownSettings, type ProviderConfig } from '../engine';
import { PROXY_RESTARTED, PROXY_STOPPED, settleOrphanedSessions } from '../../lib/sessions/session-writer';
import { activeCounts, failLease, heartbeat, reclaimLeases, releaseLease, takeLease, type CooldownStarted } from './leases';

/** A bound on one sweep's work; the next sweep takes what is left. */
const MAX_RUNS_PER_SWEEP = 100;

export interface ClusterOptions {
  /** Stable across restarts (PROXY_INSTANCE_ID, else host:port): a restart settles its previous runs at once. */
  name: string;
  /** Where the web processes reach this proxy's internal endpoints (the live view of its sessions). */
  internalUrl?: string;
  /**
   * How long a lease outlives its proxy's last heartbeat; default LEASE_TTL_MS. Heartbeats and
   * sweeps run every quarter of it, so the slots of a proxy that died are free again at most
   * 1.25 × this later (25 s by default).
   */
  ttlMs?: number;
  /** Where the recordings and traces of a stopped run are (their orphans are settled from there). */
  recordingStore: BlobStore;
  traceStore: BlobStore;
}

/** A slot on a provider held in the database for one attempt, then for its session. */
export class SharedSlot {
  private settled = false;

  constructor(
    readonly leaseId: string,
    private readonly provider: ProviderConfig,
    private readonly held: Set<string>,
  ) {}

  private released: Promise<void> | null = null;

  /**
   * The session ended or the attempt ended without an outcome; resolves once the database has the
   * slot back (a caller that answers its client after it, as the data API does, lets the client's
   * next call find the slot free). Idempotent; never rejects.
   */
  release(): Promise<void> {
    if (this.released) return this.released;
    if (this.settled) return Promise.resolve();
    this.settled = true;
    // No longer renewed either way: if the release is lost (the database did not answer), the
    // lease expires and any proxy's sweep gives the slot back.
    this.held.delete(this.leaseId);
    this.released = releaseLease(this.leaseId, concurrencyLimit(this.provider) !== null).catch((error: Error) =>
      log.error({ leaseId: this.leaseId, err: error.message }, 'could not release a provider lease; it expires'),
    );
    return this.released;
  }

  /** The attempt failed: counted where every proxy's failures are; a cooldown it started, if any. */
  async fail(settings: CooldownSettings): Promise<CooldownStarted | null> {
    if (this.settled) return null;
    this.settled = true;
    this.held.delete(this.leaseId);
    return failLease(this.leaseId, this.provider.id, settings, concurrencyLimit(this.provider) !== null).catch((error: Error) => {
      log.error({ leaseId: this.leaseId, err: error.message }, 'could not record a failed attempt; its lease expires');
      return null;
    });
  }
}

export class Cluster {
  readonly runId: string;
  readonly ttlMs: number;
  /** Leases this run holds: the only ones its heartbeat renews. */
  private readonly held = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private tick: Promise<void> = Promise.resolve();

  private constructor(private readonly options: ClusterOptions) {
    this.ttlMs = options.ttlMs ?? settings().leaseTtlMs;
    this.runId = `${options.name}~${randomBytes(6).toString('hex')}`;
  }

  /** Settles what earlier runs under this name left, registers this run and starts its heartbeat. */
  static async join(options: ClusterOptions): Promise<Cluster> {
    const cluster = new Cluster(options);
    // Rows written under the bare name (before runs had their own ids) are this name's too.
    await cluster.settle(options.name, PROXY_RESTARTED);
    const previous = await db.$queryRaw<{ id: string }[]>`DELETE FROM "ProxyInstance" WHERE "name" = ${options.name} RETURNING "id"`;
    for (const run of previous) await cluster.settle(run.id, PROXY_RESTARTED);
    await cluster.register();
    cluster.schedule();
    return cluster;
  }

  /** A slot on the provider for one attempt, or null when it is at its limit across every proxy. */
  async take(provider: ProviderConfig): Promise<SharedSlot | null> {
    const leaseId = await takeLease({ id: provider.id, limit: concurrencyLimit(provider) }, this.runId, this.ttlMs);
    if (!leaseId) return null;
    this.held.add(leaseId);
    return new SharedSlot(leaseId, provider, this.held);
  }

  /** Sessions held on each provider across every proxy (status pages). */
  activeCounts(providerIds: readonly string[]): Promise<Map<string, number>> {
    return activeCounts(providerIds);
  }

  /**
   * Stops the heartbeat and removes this run's row. Called after the drain, when every session has
   * released its lease; anything left is reclaimed now rather than when it expires.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.tick;
    await reclaimLeases(this.runId).catch(() => {});
    await db.$executeRaw`DELETE FROM "ProxyInstance" WHERE "id" = ${this.runId}`.catch(() => {});
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.tick = this.beat().finally(() => this.schedule());
    }, this.ttlMs / 4);
    // The heartbeat never keeps a process alive on its own (the server does, while it runs).
    this.timer.unref();
  }

  private async beat(): Promise<void> {
    try {
      if (!(await heartbeat(this.runId, [...this.held], this.ttlMs))) {
        // Taken for dead (the process stalled longer than the lease time): its sessions were
        // settled and its slots given away. It carries on, and counts again from now.
        log.error({ runId: this.runId }, 'this proxy missed its heartbeats and was taken for dead by another; its running sessions were recorded as errored');
        await this.register();
      }
      await reclaimLeases();
      await this.sweep();
    } catch (error) {
      log.error({ err: (error as Error).message }, 'proxy heartbeat failed');
    }
  }

  /**
   * Settles the runs whose row expired (each judged by its own lease time: proxies may be
   * configured differently). A run is claimed first (its expiry moved one lease time of ours
   * ahead) and its row removed only once it is settled, so a sweeper that dies or fails part-way
   * leaves it to the next sweep instead of losing its sessions and slots; one run that cannot be
   * settled does not hold up the others.
   */
  private async sweep(): Promise<void> {
    // One run claimed at a time: a run slow to settle holds up only itself while the other
    // sweepers claim the rest (claimed all at once, each waited for the ones before it).
    for (let n = 0; n < MAX_RUNS_PER_SWEEP; n++) {
      const [run] = await db.$queryRaw<{ id: string }[]>`
        UPDATE "ProxyInstance" SET "expiresAt" = now() + make_interval(secs => ${this.ttlMs / 1000}::float8)
        WHERE "id" = (SELECT "id" FROM "ProxyInstance" WHERE "expiresAt" < now() ORDER BY "expiresAt" LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING "id"`;
      if (!run) return;
      log.warn({ runId: run.id }, 'a proxy stopped answering; settling its sessions and freeing its slots');
      try {
        await this.settle(run.id, PROXY_STOPPED);
        await db.$executeRaw`DELETE FROM "ProxyInstance" WHERE "id" = ${run.id}`;
      } catch (error) {
        log.error({ runId: run.id, err: (error as Error).message }, 'could not settle a stopped proxy run; the next sweep tries again');
      }
    }
  }

  private async register(): Promise<void> {
    await db.$executeRaw`
      INSERT INTO "ProxyInstance" ("id", "name", "internalUrl", "expiresAt") VALUES (${this.runId}, ${this.options.name}, ${this.options.internalUrl ?? null}, now() + make_interval(secs => ${this.ttlMs / 1000}::float8))
      ON CONFLICT ("id") DO UPDATE SET "heartbeatAt" = now(), "expiresAt" = EXCLUDED."expiresAt"`;
  }

  /** Everything a stopped run held: its sessions errored, its recordings and traces settled, its slots back. */
  private async settle(runId: string, reason: string): Promise<void> {
    const sessions = await settleOrphanedSessions(runId, reason);
    const recordings = await settleOrphanedRecordings(runId, this.options.recordingStore);
    const traces = await settleOrphanedTraces(runId, this.options.traceStore);
    await reclaimLeases(runId);
    if (sessions + recordings + traces > 0) log.warn({ runId, sessions, recordings, traces }, 'settled what a stopped proxy run left');
  }
}
