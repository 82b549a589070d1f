// Recordings of a workspace: the list (last 30 days, newest first, filtered by session or router)
// and one recording with `orphaned`. Every query carries the workspace: another workspace's
// recording is not found, like a missing one.
import { notFound } from '../api/errors';
import { db } from '../db';
import { recordingPhase } from './phase';
import { RECORDINGS_LISTED_MS, type ListRecordingsQuery } from './schemas';
import { serializeRecording } from './serialize';
import type { z } from 'zod';
import type { recordingDetail as recordingDetailAnswer } from '../openapi/resources/sessions';

const withSession = { session: { select: { state: true, endedAt: true, durationMs: true } } } as const;

export async function listRecordings(workspaceId: string, query: ListRecordingsQuery) {
  const rows = await db.recording.findMany({
    where: {
      workspaceId,
      startedAt: { gte: new Date(Date.now() - RECORDINGS_LISTED_MS) },
      ...(query.session_id ? { sessionLogId: query.session_id } : {}),
      ...(query.routerInstanceId ? { routerId: query.routerInstanceId } : {}),
    },
    orderBy: [{ startedAt: 'desc' }, { id: 'desc' }],
    take: query.limit,
  });
  return { count: rows.length, replays: rows.map(serializeRecording) };
}

/** The workspace's recording with its session's state (for the phase checks). */
export async function getRecordingRowOrThrow(workspaceId: string, id: string) {
  const recording = await db.recording.findFirst({ where: { id, workspaceId }, include: withSession });
  if (!recording) throw notFound('recording');
  return recording;
}

export type RecordingRow = Awaited<ReturnType<typeof getRecordingRowOrThrow>>;

/** GET /v1/replays/:id: the resource plus `orphaned` (unfinished, and its session is over). */
export async function getRecording(workspaceId: string, id: string): Promise<z.input<typeof recordingDetailAnswer>> {
  const row = await getRecordingRowOrThrow(workspaceId, id);
  return { ...serializeRecording(row), orphaned: recordingPhase(row, new Date()) === 'orphaned' };
}
