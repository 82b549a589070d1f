import type { Trace } from '../db/generated/client';
import { pagesOf, type TraceTruncation } from './format';
import type { z } from 'zod';
import type { trace as traceAnswer } from '../openapi/resources/traces';

/**
 * The Trace resource of docs/api.md: the spec's fields, `routerInstanceId` for the row's router,
 * BigInt sizes as JSON numbers, timestamps ISO; plus this install's `truncated` and `pages` (how
 * many `?page=` pages the events endpoint has).
 */
export function serializeTrace(t: Trace): z.input<typeof traceAnswer> {
  return {
    id: t.id,
    sessionLogId: t.sessionLogId,
    routerInstanceId: t.routerId,
    providerId: t.providerId,
    startedAt: t.startedAt.toISOString(),
    endedAt: t.endedAt?.toISOString() ?? null,
    durationMs: t.durationMs,
    eventCount: t.eventCount,
    sizeBytes: Number(t.sizeBytes),
    droppedEvents: t.droppedEvents,
    complete: t.complete,
    truncated: t.truncated as TraceTruncation | null,
    pages: pagesOf(t.eventCount),
  };
}

export type TraceResource = ReturnType<typeof serializeTrace>;
