// Session history: list (workspace-wide, newest first), one session, and the control-plane close.
import { centsOf } from '../billing/charges';
import { db } from '../db';
import { notFound } from '../api/errors';
import type { z } from 'zod';
import { DEFAULT_SESSIONS_WINDOW_MS, type listSessionsQuery } from './schemas';
import { SESSION_CLOSE_CHANNEL } from './notify';
import type { session as sessionAnswer } from '../openapi/resources/sessions';
import type { sessionDetail as sessionDetailAnswer } from '../openapi/resources/sessions';

/** What serializeSession needs beside the row. */
export const sessionInclude = { recording: { select: { id: true } }, trace: { select: { id: true } } } as const;

type Row = Awaited<ReturnType<typeof db.sessionLog.findFirstOrThrow<{ include: typeof sessionInclude }>>>;

export function serializeSession(s: Row): z.input<typeof sessionAnswer> {
  const bytesIn = Number(s.bytesIn);
  const bytesOut = Number(s.bytesOut);
  return {
    id: s.id,
    state: s.state,
    kind: s.kind,
    startedAt: s.startedAt.toISOString(),
    endedAt: s.endedAt?.toISOString() ?? null,
    durationMs: s.state === 'active' ? Date.now() - s.startedAt.getTime() : s.durationMs,
    bytesIn,
    bytesOut,
    totalBytes: bytesIn + bytesOut,
    messageCount: s.messageCount,
    // Whole cents rounded half away from zero; the exact amount beside it (docs/billing.md, Rounding).
    billedCents: centsOf(s.billedMillicents),
    billedMillicents: Number(s.billedMillicents),
    errorReason: s.errorReason,
    provider: { id: s.providerId, slug: s.providerSlug, name: s.providerName },
    hasRecording: s.recording !== null,
    // Beyond the contract's list item: the list marks traced sessions and those with a profile.
    hasReplay: s.trace !== null,
    profileId: s.profileId,
  };
}

export async function listSessions(workspaceId: string, requestRouterId: string | null, query: z.infer<typeof listSessionsQuery>) {
  const where = {
    workspaceId,
    startedAt: { gte: new Date(query.since ?? Date.now() - DEFAULT_SESSIONS_WINDOW_MS) },
    ...(query.state ? { state: query.state } : {}),
    ...(query.kind ? { kind: query.kind } : {}),
    ...(query.routerInstanceId ? { routerId: query.routerInstanceId } : {}),
    // A provider slug means the provider of that slug on the request's router.
    ...(query.provider ? { providerSlug: query.provider, routerId: query.routerInstanceId ?? requestRouterId } : {}),
  };
  const [items, total] = await Promise.all([
    db.sessionLog.findMany({
      where,
      include: sessionInclude,
      orderBy: [{ startedAt: 'desc' }, { id: 'desc' }],
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
    }),
    db.sessionLog.count({ where }),
  ]);
  return { items: items.map(serializeSession), total, page: query.page, pageSize: query.pageSize };
}

export async function getSession(workspaceId: string, id: string): Promise<z.input<typeof sessionDetailAnswer>> {
  const session = await db.sessionLog.findFirst({ where: { id, workspaceId }, include: sessionInclude });
  if (!session) throw notFound('session');
  return serializeSession(session);
}

/** Marks the session closed and tells the proxy holding it to drop the client (the browser stays). */
export async function closeSession(workspaceId: string, id: string) {
  const session = await db.sessionLog.findFirst({ where: { id, workspaceId }, select: { id: true, state: true, endedAt: true } });
  if (!session) throw notFound('session');
  if (session.state !== 'active') return { id, state: session.state, closedAt: session.endedAt?.toISOString() ?? null, alreadyClosed: true };
  const closedAt = new Date();
  await db.$transaction(async (tx) => {
    await tx.sessionLog.updateMany({ where: { id, state: 'active' }, data: { state: 'closed', endedAt: closedAt } });
    await tx.$executeRaw`SELECT pg_notify(${SESSION_CLOSE_CHANNEL}, ${id})`;
  });
  return { id, state: 'closed' as const, closedAt: closedAt.toISOString() };
}
