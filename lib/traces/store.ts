// A trace's row through its capture (docs/traces.md): created when the session starts (so the
// session shows `hasReplay` and the trace is listed while it runs), finished with its summary when
// the session ends. The session row comes first (the trace refers to it), so the proxy calls
// `createTrace` after the session's insert.
import { db } from '../db';
import type { TraceSummary } from './format';

export interface TraceStart {
  id: string;
  workspaceId: string;
  sessionLogId: string;
  routerId: string;
  providerId: string | null;
  startedAt: Date;
}

export async function createTrace(start: TraceStart): Promise<void> {
  await db.trace.create({ data: start });
}

/** A running trace's figures so far (the list shows a trace growing); never over a finished row. */
export async function showProgress(id: string, figures: { eventCount: number; sizeBytes: number; droppedEvents: number }): Promise<void> {
  await db.trace.updateMany({
    where: { id, complete: false, endedAt: null },
    data: { eventCount: figures.eventCount, sizeBytes: BigInt(figures.sizeBytes), droppedEvents: figures.droppedEvents },
  });
}

/** The end of the capture: the summary's figures and `complete`. False when the trace was deleted while it ran. */
export async function finishTrace(summary: TraceSummary): Promise<boolean> {
  const { count } = await db.trace.updateMany({
    where: { id: summary.traceId },
    data: {
      endedAt: new Date(summary.endedAt),
      durationMs: summary.durationMs,
      eventCount: summary.eventCount,
      sizeBytes: BigInt(summary.sizeBytes),
      droppedEvents: summary.droppedEvents,
      truncated: summary.truncated,
      complete: true,
    },
  });
  return count === 1;
}
