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
  const from = new Date(`${series[0]!}T00:00:00.000Z`);
  const until = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS);
  const [sessionDays, ledgerDays] = await readUsageRows(workspaceId, series, from, until);

  const byDay = new Map(sessionDays.map((d) => [d.day, d]));
  const billed = new Map<string, bigint>();
  const breakdown = Object.fromEntries(Object.values(BREAKDOWN_FIELD).map((f) => [f, 0n])) as Record<string, bigint>;
  for (const row of ledgerDays) {
    breakdown[BREAKDOWN_FIELD[row.kind]]! += row.total;
    if (CHARGE_KINDS.includes(row.kind)) billed.set(row.day, (billed.get(row.day) ?? 0n) - row.total);
  }

  const rows = series.map((day) => {
    const s = byDay.get(day);
    const bytesIn = s?.bytesIn ?? 0n;
    const bytesOut = s?.bytesOut ?? 0n;
    return { day, sessions: s?.sessions ?? 0, bytesIn, bytesOut, billedMillicents: billed.get(day) ?? 0n, errored: s?.errored ?? 0 };
  });
  type Row = (typeof rows)[number];
  const count = (pick: (row: Row) => number) => rows.reduce((n, row) => n + pick(row), 0);
  const total = (pick: (row: Row) => bigint) => rows.reduce((n, row) => n + pick(row), 0n);
  const billedTotal = total((r) => r.billedMillicents);

  return {
    days,
    series: rows.map((r) => ({
      day: r.day,
      sessions: r.sessions,
      bytesIn: Number(r.bytesIn),
      bytesOut: Number(r.bytesOut),
      totalBytes: Number(r.bytesIn + r.bytesOut),
      billedCents: centsOf(r.billedMillicents),
      billedMillicents: Number(r.billedMillicents),
      errored: r.errored,
    })),
    totals: {
      sessions: count((r) => r.sessions),
      bytes: Number(total((r) => r.bytesIn + r.bytesOut)),
      billedCents: centsOf(billedTotal),
      billedMillicents: Number(billedTotal),
      errored: count((r) => r.errored),
    },
    breakdown: Object.fromEntries(Object.entries(breakdown).map(([k, v]) => [k, Number(v)])),
  };
}

/** The window's sessions per day and its ledger totals per day and kind, read side by side. */
function readUsageRows(workspaceId: string, series: string[], from: Date, until: Date) {
  return Promise.all([
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
      WHERE "workspaceId" = ${workspaceId} AND "day" >= ${series[0]!}::date AND "day" <= ${series.at(-1)!}::date`,
  ]);
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
