// Provider concurrency shared by every proxy process, leased in PostgreSQL (docs/deployment.md,
// "Shared routing state"). Each statement here is one round trip and atomic on its own:
// The two statements of every session (take, release) go through the plain pool (sqlPool): they are
// on the connect path, where Prisma's own cost per query would be most of their time.
// - take: the provider's `active` count goes up only while below its limit (INSERT … ON CONFLICT
//   DO UPDATE … WHERE locks the row and re-checks the limit on its newest version, so two proxies
//   taking the last slot at once cannot both win), and the lease row is written with it;
// - release: the lease is marked released exactly once and the count goes down; the other proxies
//   hear of the free slot through NOTIFY;
// - a failed attempt also decides the shared cooldown from the attempts every proxy made;
// - leases whose holder stopped renewing them are reclaimed by whichever proxy sweeps first.
import { randomUUID } from 'node:crypto';
import { db, Prisma, sqlPool } from '../../lib/db';
import { COOLDOWN_WINDOW_MS, type CooldownSettings } from '../engine';

/** NOTIFY channel: a slot freed on the provider in the payload. */
export const PROVIDER_FREED_CHANNEL = 'provider_freed';
/** NOTIFY channel: `<providerId> <remaining ms>`, a shared cooldown that just started. */
export const PROVIDER_COOLDOWN_CHANNEL = 'provider_cooldown';
/** Released leases are kept this long: the failure window counts them (60 s), with a margin. */
const RELEASED_KEPT_MS = 2 * COOLDOWN_WINDOW_MS;

export interface LeaseProvider {
  id: string;
  /** The limit across all proxies; null = unlimited (the lease still counts the attempt). */
  limit: number | null;
}

export interface CooldownStarted {
  providerId: string;
  remainingMs: number;
}

/** Takes a slot on the provider for one connection attempt; null when it is at its limit everywhere. */
export async function takeLease(provider: LeaseProvider, proxyRunId: string, ttlMs: number): Promise<string | null> {
  const id = `lease_${randomUUID().replaceAll('-', '')}`;
  const { rowCount } = await sqlPool().query(TAKE, [provider.id, provider.limit, id, proxyRunId, ttlMs / 1000]);
  return rowCount === 1 ? id : null;
}

const TAKE = `
  WITH slot AS (
    INSERT INTO "ProviderState" ("providerId", "active") VALUES ($1, 1)
    ON CONFLICT ("providerId") DO UPDATE SET "active" = "ProviderState"."active" + 1
      WHERE $2::int IS NULL OR "ProviderState"."active" < $2::int
    RETURNING 1
  )
  INSERT INTO "ProviderLease" ("id", "providerId", "proxyInstanceId", "takenAt", "expiresAt")
  SELECT $3, $1, $4, now(), now() + make_interval(secs => $5::float8) FROM slot`;

/** Gives the slot back (a session ended, or an attempt ended without an outcome). Idempotent. */
export async function releaseLease(leaseId: string, notify: boolean): Promise<void> {
  await sqlPool().query(RELEASE, [leaseId, notify, PROVIDER_FREED_CHANNEL]);
}

const RELEASE = `
  WITH released AS (
    UPDATE "ProviderLease" SET "releasedAt" = now() WHERE "id" = $1 AND "releasedAt" IS NULL RETURNING "providerId"
  ), counted AS (
    UPDATE "ProviderState" s SET "active" = GREATEST(0, s."active" - 1) FROM released WHERE s."providerId" = released."providerId"
    RETURNING s."providerId"
  )
  SELECT pg_notify($3, "providerId") FROM counted WHERE $2::boolean`;

/**
 * The attempt failed: the slot back, the failure counted, and the shared cooldown decided from
 * every proxy's attempts in the window (the rules of proxy/engine/cooldown.ts: attempts since the
 * last cooldown started, inside 60 s; strictly above the threshold; none while cooling).
 */
export async function failLease(leaseId: string, providerId: string, settings: CooldownSettings, notify: boolean): Promise<CooldownStarted | null> {
  const rows = await db.$queryRaw<{ starts: boolean }[]>`
    WITH released AS (
      UPDATE "ProviderLease" SET "releasedAt" = now(), "failed" = true WHERE "id" = ${leaseId} AND "releasedAt" IS NULL RETURNING "providerId"
    ), window_counts AS (
      SELECT count(*)::int AS attempts, count(*) FILTER (WHERE l."failed" OR l."id" = ${leaseId})::int AS failures
      FROM "ProviderLease" l LEFT JOIN "ProviderState" s ON s."providerId" = l."providerId"
      WHERE l."providerId" = ${providerId} AND l."takenAt" > now() - make_interval(secs => ${COOLDOWN_WINDOW_MS / 1000}::float8)
        AND l."takenAt" >= COALESCE(s."windowStart", '-infinity')
    ), decision AS (
      SELECT ${settings.cooldownDefaultMs}::int > 0
        AND (s."cooldownUntil" IS NULL OR s."cooldownUntil" <= now())
        AND w.attempts >= ${settings.cooldownMinRequestVolume}::int
        AND w.failures::float8 / GREATEST(w.attempts, 1) > ${settings.cooldownFailureThreshold}::float8 AS starts
      FROM "ProviderState" s, window_counts w WHERE s."providerId" = ${providerId}
    ), updated AS (
      UPDATE "ProviderState" s SET "active" = GREATEST(0, s."active" - 1),
        "cooldownUntil" = CASE WHEN d.starts THEN now() + make_interval(secs => ${settings.cooldownDefaultMs / 1000}::float8) ELSE s."cooldownUntil" END,
        "windowStart" = CASE WHEN d.starts THEN now() ELSE s."windowStart" END
      FROM released, decision d WHERE s."providerId" = released."providerId"
      RETURNING d.starts
    )
    SELECT starts,
      CASE WHEN ${notify}::boolean THEN pg_notify(${PROVIDER_FREED_CHANNEL}, ${providerId})::text END AS "freed",
      CASE WHEN starts THEN pg_notify(${PROVIDER_COOLDOWN_CHANNEL}, ${providerId} || ' ' || ${settings.cooldownDefaultMs}::text)::text END AS "cooled"
    FROM updated`;
  return rows[0]?.starts ? { providerId, remainingMs: settings.cooldownDefaultMs } : null;
}

/** Shared cooldowns running now on these providers (a proxy loading a router picks them up). */
export async function runningCooldowns(providerIds: readonly string[]): Promise<CooldownStarted[]> {
  if (providerIds.length === 0) return [];
  return db.$queryRaw<CooldownStarted[]>`
    SELECT "providerId", (EXTRACT(EPOCH FROM ("cooldownUntil" - now())) * 1000)::int AS "remainingMs"
    FROM "ProviderState" WHERE "providerId" = ANY(${providerIds}) AND "cooldownUntil" > now()`;
}

/** The provider's configuration changed: what every proxy counted about the old one is dropped. */
export async function resetSharedState(providerId: string): Promise<void> {
  await db.$executeRaw`UPDATE "ProviderState" SET "cooldownUntil" = NULL, "windowStart" = now() WHERE "providerId" = ${providerId}`;
}

/** Sessions held on each provider across all proxies. */
export async function activeCounts(providerIds: readonly string[]): Promise<Map<string, number>> {
  if (providerIds.length === 0) return new Map();
  const rows = await db.$queryRaw<{ providerId: string; active: number }[]>`
    SELECT "providerId", "active" FROM "ProviderState" WHERE "providerId" = ANY(${providerIds})`;
  return new Map(rows.map((r) => [r.providerId, r.active]));
}

/**
 * Renews this proxy run's heartbeat and the leases it still holds (a lease whose release was lost
 * is not among them: it expires). Returns false when the run's row is gone (it was taken for dead).
 */
export async function heartbeat(proxyRunId: string, held: readonly string[], ttlMs: number): Promise<boolean> {
  const [row] = await db.$queryRaw<{ alive: number }[]>`
    WITH me AS (
      UPDATE "ProxyInstance" SET "heartbeatAt" = now(), "expiresAt" = now() + make_interval(secs => ${ttlMs / 1000}::float8) WHERE "id" = ${proxyRunId} RETURNING 1
    ), renewed AS (
      UPDATE "ProviderLease" SET "expiresAt" = now() + make_interval(secs => ${ttlMs / 1000}::float8)
      WHERE "proxyInstanceId" = ${proxyRunId} AND "releasedAt" IS NULL AND "id" = ANY(${held}::text[]) RETURNING 1
    )
    SELECT (SELECT count(*) FROM me)::int AS alive, (SELECT count(*) FROM renewed)::int AS renewed`;
  return (row?.alive ?? 0) > 0;
}

/**
 * Reclaims leases nobody renewed in time (their proxy stopped) and, for the providers that got a
 * slot back, tells every proxy; drops released leases older than the failure window. `runId`
 * limits it to one proxy run's leases, expired or not (that run is known to be gone).
 */
export async function reclaimLeases(runId?: string): Promise<string[]> {
  const rows = await db.$queryRaw<{ providerId: string }[]>`
    WITH expired AS (
      UPDATE "ProviderLease" SET "releasedAt" = now()
      WHERE "releasedAt" IS NULL AND ${runId === undefined ? Prisma.sql`"expiresAt" < now()` : Prisma.sql`"proxyInstanceId" = ${runId}`}
      RETURNING "providerId"
    ), counts AS (
      SELECT "providerId", count(*)::int AS n FROM expired GROUP BY "providerId"
    ), counted AS (
      UPDATE "ProviderState" s SET "active" = GREATEST(0, s."active" - counts.n) FROM counts WHERE s."providerId" = counts."providerId"
      RETURNING s."providerId"
    ), pruned AS (
      DELETE FROM "ProviderLease" WHERE "releasedAt" < now() - make_interval(secs => ${RELEASED_KEPT_MS / 1000}::float8)
    )
    SELECT "providerId", pg_notify(${PROVIDER_FREED_CHANNEL}, "providerId")::text FROM counted`;
  return rows.map((r) => r.providerId);
}
