// GET /v1/overview (docs/api.md, Overview): what a workspace owner looks at first, in one answer.
// Every query is scoped by the workspace and runs on an index: SessionLog (workspaceId, startedAt)
// and (workspaceId, state, startedAt), DataApiUsage's key (workspaceId, day, routerId), the month's
// UsageCounter row. They run side by side; the series and the per-router and per-provider figures
// are assembled from their grouped rows here.
import type { ResolvedWorkspace } from '../api/context';
import { centsOf } from '../billing/charges';
import { periodBounds, usagePeriod } from '../billing/period';
import { FREE_SESSIONS_PER_MONTH } from '../billing/rates';
import { db } from '../db';
import { serializeSession, sessionInclude } from '../sessions/sessions';
import { accountState } from '../workspaces/serialize';
import { readChecklist } from './checklist';
import { LATEST_SESSIONS } from './schemas';
import { dailySeries, seriesTotals, utcWindow, type CallDayRow, type SessionDayRow } from './series';
import type { z } from 'zod';
import type { overview as overviewAnswer } from '../openapi/resources/overview';

interface ProviderRow {
  routerId: string | null;
  slug: string;
  name: string;
  sessions: number;
  errored: number;
}

interface CallRow extends CallDayRow {
  routerId: string;
}

export async function readOverview(workspace: ResolvedWorkspace, userId: string, days: number, now = new Date()): Promise<z.input<typeof overviewAnswer>> {
  const span = utcWindow(days, now);
  const [sessionDays, providerRows, activeRows, callRows, routers, latest, usage, checklist] = await readRows(workspace.id, userId, span, now);

  const series = dailySeries(days, now, sessionDays, callRows);
  const usedCount = usage?.sessions ?? 0;
  return {
    days,
    series,
    totals: seriesTotals(series),
    activeSessions: activeRows.reduce((sum, r) => sum + r.active, 0),
    errorsByProvider: providerRows
      .map((p) => ({ routerId: p.routerId, providerSlug: p.slug, providerName: p.name, sessions: p.sessions, errored: p.errored }))
      .sort((a, b) => b.errored - a.errored || b.sessions - a.sessions || a.providerSlug.localeCompare(b.providerSlug)),
    routers: routers.map((r) => routerFigures(r, providerRows, activeRows, callRows)),
    wallet: {
      accountState: accountState(workspace),
      balanceUsdCents: centsOf(workspace.balanceMillicents),
      balanceMillicents: Number(workspace.balanceMillicents),
    },
    freeSessions: {
      includedCount: FREE_SESSIONS_PER_MONTH,
      usedCount,
      remaining: Math.max(0, FREE_SESSIONS_PER_MONTH - usedCount),
      resetsAt: periodBounds(now).endsAt.toISOString(),
    },
    latestSessions: latest.map((s) => ({ ...serializeSession(s), routerId: s.routerId })),
    checklist,
  };
}

/** The grouped rows the answer is assembled from, read side by side. */
function readRows(workspaceId: string, userId: string, span: ReturnType<typeof utcWindow>, now: Date) {
  const firstDay = span.days[0]!;
  const lastDay = span.days.at(-1)!;
  return Promise.all([
    db.$queryRaw<SessionDayRow[]>`
      SELECT to_char(("startedAt" AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS "day", "state"::text AS "state", count(*)::int AS "count"
      FROM "SessionLog"
      WHERE "workspaceId" = ${workspaceId} AND "startedAt" >= ${span.from} AND "startedAt" < ${span.until} AND NOT "playground"
      GROUP BY 1, 2`,
    // A provider is its slug on its router; its name is the one its newest session recorded.
    db.$queryRaw<ProviderRow[]>`
      SELECT "routerId", "providerSlug" AS "slug", (array_agg("providerName" ORDER BY "startedAt" DESC))[1] AS "name",
        count(*)::int AS "sessions", (count(*) FILTER (WHERE "state" = 'errored'))::int AS "errored"
      FROM "SessionLog"
      WHERE "workspaceId" = ${workspaceId} AND "startedAt" >= ${span.from} AND "startedAt" < ${span.until} AND NOT "playground"
      GROUP BY 1, 2`,
    // Active now, whenever it started.
    db.$queryRaw<{ routerId: string | null; active: number }[]>`
      SELECT "routerId", count(*)::int AS "active" FROM "SessionLog"
      WHERE "workspaceId" = ${workspaceId} AND "state" = 'active' AND NOT "playground"
      GROUP BY 1`,
    db.$queryRaw<CallRow[]>`
      SELECT to_char("day", 'YYYY-MM-DD') AS "day", "routerId", "calls", "failed" FROM "DataApiUsage"
      WHERE "workspaceId" = ${workspaceId} AND "day" >= ${firstDay}::date AND "day" <= ${lastDay}::date`,
    db.router.findMany({
      where: { workspaceId },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: { id: true, slug: true, name: true, _count: { select: { providers: true } } },
    }),
    db.sessionLog.findMany({
      where: { workspaceId, playground: false },
      include: sessionInclude,
      orderBy: [{ startedAt: 'desc' }, { id: 'desc' }],
      take: LATEST_SESSIONS,
    }),
    db.usageCounter.findUnique({ where: { workspaceId_period: { workspaceId, period: usagePeriod(now) } }, select: { sessions: true } }),
    readChecklist(workspaceId, userId, now),
  ]);
}

interface RouterRow {
  id: string;
  slug: string;
  name: string;
  _count: { providers: number };
}

/** One router's line: its providers, sessions now and over the window, data-API calls. */
function routerFigures(r: RouterRow, providerRows: ProviderRow[], activeRows: { routerId: string | null; active: number }[], callRows: CallRow[]) {
  const providers = providerRows.filter((p) => p.routerId === r.id);
  const calls = callRows.filter((c) => c.routerId === r.id);
  return {
    id: r.id,
    slug: r.slug,
    name: r.name,
    providerCount: r._count.providers,
    activeSessions: activeRows.find((a) => a.routerId === r.id)?.active ?? 0,
    sessions: providers.reduce((sum, p) => sum + p.sessions, 0),
    errored: providers.reduce((sum, p) => sum + p.errored, 0),
    dataApiCalls: calls.reduce((sum, c) => sum + c.calls, 0),
    dataApiFailed: calls.reduce((sum, c) => sum + c.failed, 0),
  };
}
