// GET /v1/billing/usage and GET /v1/billing/ledger (docs/api.md, Billing): the daily series, its
// totals and the ledger's breakdown, from two grouped queries on indexed columns.
import { db } from '../db';
import type { LedgerKind } from '../db/generated/enums';
import { BREAKDOWN_FIELD } from './breakdown';
import { centsOf } from './charges';
import type { LedgerQuery } from './read-schemas';

const DAY_MS = 86_400_000;

/** The kinds that draw from the wallet for usage: a day's `billedMillicents` is minus their sum. */
export const CHARGE_KINDS: readonly LedgerKind[] = ['session', 'recording', 'observability', 'byok_overage', 'reseller'];

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The `days` UTC days ending with today's, oldest first, as YYYY-MM-DD. */
export function windowDays(days: number, now = new Date()): string[] {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  return Array.from({ length: days }, (_, i) => dayOf(today - (days - 1 - i) * DAY_MS));
}

interface SessionDay {
  day: string;
  sessions: number;
  bytesIn: bigint;
  bytesOut: bigint;
  errored: number;
}

interface LedgerDay {
  day: string;
  kind: LedgerKind;
  total: bigint;
}

export async function billingUsage(workspaceId: string, days: number, now = new Date()) {
  const series = windowDays(days, now);
  const first = series[0]!;
  const from = new Date(`${first}T00:00:00.000Z`);
  const until = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS);
  const [sessionDays, ledgerDays] = await Promise.all([
    // SessionLog (workspaceId, startedAt DESC) index: the window's rows of this workspace only.
    db.$queryRaw<SessionDay[]>`
      SELECT to_char(("startedAt" AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS "day",
        count(*)::int AS "sessions", coalesce(sum("bytesIn"), 0)::bigint AS "bytesIn", coalesce(sum("bytesOut"), 0)::bigint AS "bytesOut",
        (count(*) FILTER (WHERE "state" = 'errored'))::int AS "errored"
      FROM "SessionLog"
      WHERE "workspaceId" = ${workspaceId} AND "startedAt" >= ${from} AND "startedAt" < ${until} AND NOT "playground"
      GROUP BY 1`,
    // LedgerEntry's key (workspaceId, day, kind): at most 8 rows a day.
    db.$queryRaw<LedgerDay[]>`
      SELECT to_char("day", 'YYYY-MM-DD') AS "day", "kind"::text AS "kind", "totalMillicents" AS "total"
      FROM "LedgerEntry"
      WHERE "workspaceId" = ${workspaceId} AND "day" >= ${first}::date AND "day" <= ${series.at(-1)!}::date`,
  ]);

  const byDay = new Map(sessionDays.map((d) => [d.day, d]));
  const billed = new Map<string, bigint>();
  const breakdown = Object.fromEntries(Object.values(BREAKDOWN_FIELD).map((f) => [f, 0n])) as Record<string, bigint>;
  for (const row of ledgerDays) {
    breakdown[BREAKDOWN_FIELD[row.kind]]! += row.total;
    if (CHARGE_KINDS.includes(row.kind)) billed.set(row.day, (billed.get(row.day) ?? 0n) - row.total);
  }

  const totals = { sessions: 0, bytes: 0n, billedMillicents: 0n, errored: 0 };
  const rows = series.map((day) => {
    const s = byDay.get(day);
    const bytesIn = s?.bytesIn ?? 0n;
    const bytesOut = s?.bytesOut ?? 0n;
    const billedMillicents = billed.get(day) ?? 0n;
    totals.sessions += s?.sessions ?? 0;
    totals.bytes += bytesIn + bytesOut;
    totals.billedMillicents += billedMillicents;
    totals.errored += s?.errored ?? 0;
    return {
      day,
      sessions: s?.sessions ?? 0,
      bytesIn: Number(bytesIn),
      bytesOut: Number(bytesOut),
      totalBytes: Number(bytesIn + bytesOut),
      billedCents: centsOf(billedMillicents),
      billedMillicents: Number(billedMillicents),
      errored: s?.errored ?? 0,
    };
  });

  return {
    days,
    series: rows,
    totals: {
      sessions: totals.sessions,
      bytes: Number(totals.bytes),
      billedCents: centsOf(totals.billedMillicents),
      billedMillicents: Number(totals.billedMillicents),
      errored: totals.errored,
    },
    breakdown: Object.fromEntries(Object.entries(breakdown).map(([k, v]) => [k, Number(v)])),
  };
}

/** The first day of the UTC month `months - 1` months before `now`'s (months = 1: this month). */
export function ledgerWindowStart(months: number, now = new Date()): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (months - 1), 1)).toISOString().slice(0, 10);
}

export async function ledgerRows(workspaceId: string, query: LedgerQuery, now = new Date()) {
  const windowStart = ledgerWindowStart(query.months, now);
  const since = query.sinceDay && query.sinceDay > windowStart ? query.sinceDay : windowStart;
  const rows = await db.ledgerEntry.findMany({
    where: { workspaceId, day: { gte: new Date(`${since}T00:00:00.000Z`) }, ...(query.kind ? { kind: query.kind } : {}) },
    orderBy: [{ day: 'desc' }, { kind: 'asc' }],
    take: query.limit,
  });
  return {
    rows: rows.map((r) => ({
      workspaceId: r.workspaceId,
      day: r.day.toISOString().slice(0, 10),
      kind: r.kind,
      count: r.count,
      totalMillicents: Number(r.totalMillicents),
      updatedAt: r.updatedAt.getTime(),
    })),
  };
}
