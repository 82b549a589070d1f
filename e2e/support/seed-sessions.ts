// Session history as the proxy leaves it (lib/sessions/session-writer.ts), its captures
// (lib/recordings/store.ts, lib/traces/store.ts) and the usage counters, for tests that need
// sessions on past days, in every state, or counted figures without running that many sessions.
import type { Prisma } from '../../lib/db';

const database = async () => (await import('../../lib/db')).db;

type SessionSeed = Partial<Omit<Prisma.SessionLogUncheckedCreateInput, 'workspaceId' | 'routerId'>>;

/**
 * The proxy's row: its id format, an `active` session started now; an ended one ended
 * `durationMs` after its start. No `monthOrdinal`: the month's count is the test's to set
 * (seedUsage), so a seeded session takes no place in it and is never charged.
 */
async function sessionRow(workspaceId: string, routerId: string | null, overrides: SessionSeed): Promise<Prisma.SessionLogUncheckedCreateInput> {
  const { newSessionId } = await import('../../lib/sessions/session-writer');
  const state = overrides.state ?? 'active';
  const startedAt = new Date(overrides.startedAt ?? Date.now());
  const endedAt = state === 'active' ? null : new Date(startedAt.getTime() + (overrides.durationMs ?? 0));
  return { id: newSessionId(), providerSlug: 'p', providerName: 'P', kind: 'route', state, startedAt, endedAt, ...overrides, workspaceId, routerId };
}

/** One session; `routerId` null is a session whose router was deleted since. */
export async function seedSession(workspaceId: string, routerId: string | null, overrides: SessionSeed = {}) {
  const db = await database();
  return db.sessionLog.create({ data: await sessionRow(workspaceId, routerId, overrides) });
}

/** Many sessions on one router in one statement. */
export async function seedSessions(workspaceId: string, routerId: string | null, rows: SessionSeed[]): Promise<number> {
  const db = await database();
  const { count } = await db.sessionLog.createMany({ data: await Promise.all(rows.map((row) => sessionRow(workspaceId, routerId, row))) });
  return count;
}

/** The session a capture belongs to: its row's ids and start are the capture's. */
interface CapturedSession {
  id: string;
  workspaceId: string;
  routerId: string | null;
  providerId?: string | null;
  startedAt: Date;
}

function routerOf(session: CapturedSession): string {
  if (!session.routerId) throw new Error(`session ${session.id} has no router: a capture needs one`);
  return session.routerId;
}

type RecordingSeed = Partial<Omit<Prisma.RecordingUncheckedCreateInput, 'workspaceId' | 'sessionLogId' | 'routerId'>>;

/** A recording as the proxy starts it with its session (still running until `complete` and its figures are given). */
export async function seedRecording(session: CapturedSession & { profileId?: string | null }, overrides: RecordingSeed = {}) {
  const db = await database();
  const { newRecordingId } = await import('../../proxy/plugins/recording');
  return db.recording.create({
    data: {
      id: newRecordingId(),
      providerId: session.providerId ?? null,
      profileId: session.profileId ?? null,
      startedAt: session.startedAt,
      format: 'jpeg',
      ...overrides,
      workspaceId: session.workspaceId,
      sessionLogId: session.id,
      routerId: routerOf(session),
    },
  });
}

type TraceSeed = Partial<Omit<Prisma.TraceUncheckedCreateInput, 'workspaceId' | 'sessionLogId' | 'routerId'>>;

/** A trace as the proxy starts it with its session (still running until `complete` and its figures are given). */
export async function seedTrace(session: CapturedSession, overrides: TraceSeed = {}) {
  const db = await database();
  const { newTraceId } = await import('../../proxy/plugins/trace');
  return db.trace.create({
    data: {
      id: newTraceId(),
      providerId: session.providerId ?? null,
      startedAt: session.startedAt,
      ...overrides,
      workspaceId: session.workspaceId,
      sessionLogId: session.id,
      routerId: routerOf(session),
    },
  });
}

/**
 * Sets the workspace's session count for a month (this one by default) outright, where the proxy
 * adds one per session: the count a test starts from, e.g. at the edge of the free allowance.
 */
export async function seedUsage(workspaceId: string, sessions: number, period?: string) {
  const db = await database();
  const { usagePeriod } = await import('../../lib/billing/period');
  const month = period ?? usagePeriod(new Date());
  return db.usageCounter.upsert({
    where: { workspaceId_period: { workspaceId, period: month } },
    create: { workspaceId, period: month, sessions },
    update: { sessions },
  });
}

/** Data-API calls per router and UTC day (`day` at midnight UTC), in one statement: history the proxy would count call by call. */
export async function seedDataApiUsage(workspaceId: string, rows: { routerId: string; day: Date; calls?: number; failed?: number }[]): Promise<number> {
  const db = await database();
  const { count } = await db.dataApiUsage.createMany({ data: rows.map((row) => ({ ...row, workspaceId })) });
  return count;
}
