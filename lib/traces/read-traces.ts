// Traces of the request's router: the list (the last day by default, newest first, or one
// session's) and one trace with `orphaned`. Every query carries the workspace and the router: a
// trace of another router or workspace is not found, like a missing one.
import { notFound } from '../api/errors';
import { db } from '../db';
import { recordingPhase } from '../recordings/phase';
import type { ListTracesQuery } from './schemas';
import { serializeTrace } from './serialize';
import type { z } from 'zod';
import type { traceDetail as traceDetailAnswer } from '../openapi/resources/traces';

export interface TraceScope {
  workspaceId: string;
  routerId: string;
}

const withSession = { session: { select: { state: true, endedAt: true } } } as const;

export async function listTraces(scope: TraceScope, query: ListTracesQuery) {
  const rows = await db.trace.findMany({
    where: {
      workspaceId: scope.workspaceId,
      routerId: scope.routerId,
      ...(query.since !== null ? { startedAt: { gte: new Date(query.since) } } : {}),
      ...(query.session_id ? { sessionLogId: query.session_id } : {}),
    },
    orderBy: [{ startedAt: 'desc' }, { id: 'desc' }],
    take: query.limit,
  });
  return { count: rows.length, inspections: rows.map(serializeTrace) };
}

/** The router's trace with its session's state (for the phase checks). */
export async function getTraceRowOrThrow(scope: TraceScope, id: string) {
  const trace = await db.trace.findFirst({ where: { id, workspaceId: scope.workspaceId, routerId: scope.routerId }, include: withSession });
  if (!trace) throw notFound('trace');
  return trace;
}

export type TraceRow = Awaited<ReturnType<typeof getTraceRowOrThrow>>;

/**
 * Where a trace stands: being written (its session runs, or ended less than FINISHING_GRACE_MS ago
 * and the capture may still be closing its pages), complete, or orphaned. The rule is the
 * recordings' (lib/recordings/phase.ts): both captures end the same way.
 */
export const tracePhase = (row: TraceRow, now = new Date()) => recordingPhase(row, now);

/** GET /v1/inspections/:id: the resource plus `orphaned` (unfinished, and its session is over). */
export async function getTrace(scope: TraceScope, id: string): Promise<z.input<typeof traceDetailAnswer>> {
  const row = await getTraceRowOrThrow(scope, id);
  return { ...serializeTrace(row), orphaned: tracePhase(row) === 'orphaned' };
}
