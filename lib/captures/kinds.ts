// What the service captures of a session besides its row: recordings (docs/recordings.md) and
// traces (docs/traces.md). Each kind is a row that refers to its session and a folder of files in
// blob storage; the retention sweep and the API's delete treat every kind alike through this
// descriptor. A new kind of capture is one more entry here.
import { db } from '../db';
import { recordingFolder } from '../recordings/format';
import { traceFolder } from '../traces/format';

const DAY_MS = 86_400_000;

/** Which rows a delete may reach: the caller's workspace, and for router-scoped kinds its router. */
export interface CaptureScope {
  workspaceId: string;
  routerId?: string;
}

export interface CaptureKind {
  /** The word in errors and logs ("no recording …"). */
  noun: 'recording' | 'trace';
  /** Kept this long from the session's start, then swept (docs/connect.md, Retention). */
  retentionMs: number;
  folder(id: string): string;
  /** Ids of captures started before `cutoff`, oldest first. */
  startedBefore(cutoff: Date, take: number): Promise<{ id: string }[]>;
  /** Deletes the row if it still matches; how many went (0 or 1). */
  deleteRow(id: string, where: { scope?: CaptureScope; startedBefore?: Date }): Promise<number>;
}

const rowWhere = (id: string, where: { scope?: CaptureScope; startedBefore?: Date }) => ({
  id,
  ...(where.scope ? { workspaceId: where.scope.workspaceId } : {}),
  ...(where.scope?.routerId ? { routerId: where.scope.routerId } : {}),
  ...(where.startedBefore ? { startedAt: { lt: where.startedBefore } } : {}),
});
const oldestFirst = (cutoff: Date, take: number) => ({
  where: { startedAt: { lt: cutoff } },
  select: { id: true },
  orderBy: { startedAt: 'asc' as const },
  take,
});

export const RECORDINGS: CaptureKind = {
  noun: 'recording',
  retentionMs: 30 * DAY_MS,
  folder: recordingFolder,
  startedBefore: (cutoff, take) => db.recording.findMany(oldestFirst(cutoff, take)),
  deleteRow: async (id, where) => (await db.recording.deleteMany({ where: rowWhere(id, where) })).count,
};

export const TRACES: CaptureKind = {
  noun: 'trace',
  retentionMs: 60 * DAY_MS,
  folder: traceFolder,
  startedBefore: (cutoff, take) => db.trace.findMany(oldestFirst(cutoff, take)),
  deleteRow: async (id, where) => (await db.trace.deleteMany({ where: rowWhere(id, where) })).count,
};

export const CAPTURE_KINDS = [RECORDINGS, TRACES] as const;
