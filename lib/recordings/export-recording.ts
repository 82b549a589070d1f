// POST /v1/replays/:id/export (docs/api.md, Recordings, "Export"): starts the MP4 encode of a
// finished recording, or of what an orphaned one captured. A video already made is answered as
// such, an encode already queued or running is not asked for twice, and a recording still being
// written is 409 `not_complete`.
import { blobs } from '../blobs';
import { db } from '../db';
import { videoKey } from './format';
import { recordingPhase } from './phase';
import { notComplete } from './read-frames';
import { getRecordingRowOrThrow } from './read-recordings';
import { requestEncode } from './request-encode';

export type ExportResult = { mp4Status: 'queued' | 'running' } | { alreadyReady: true; mp4Status: 'ready' };

/** Two exports racing: the loser reads the row again, at most this many times. */
const ATTEMPTS = 3;

export async function exportRecording(workspaceId: string, id: string): Promise<ExportResult> {
  for (let attempt = 1; ; attempt++) {
    const row = await getRecordingRowOrThrow(workspaceId, id);
    if (row.mp4Status === 'ready' && (await blobs().size(videoKey(row.id))) !== null) return { alreadyReady: true, mp4Status: 'ready' };
    if (row.mp4Status === 'queued' || row.mp4Status === 'running') return { mp4Status: row.mp4Status };
    if (recordingPhase(row, new Date()) === 'recording') throw notComplete();

    // Never started, failed, or "ready" with its file gone. The status moves only from the state
    // just read, so of two exports at once one starts the encode and the other reports it.
    const { count } = await db.recording.updateMany({
      where: { id: row.id, workspaceId, mp4Status: row.mp4Status },
      data: { mp4Status: 'running', mp4Error: null },
    });
    if (count === 0) {
      if (attempt < ATTEMPTS) continue;
      throw new Error(`recording ${row.id}: its video status kept changing during an export`);
    }
    try {
      await requestEncode(row.id);
    } catch (error) {
      await db.recording.updateMany({ where: { id: row.id, mp4Status: 'running' }, data: { mp4Status: 'failed', mp4Error: 'the encode could not be queued; export again' } });
      throw error;
    }
    return { mp4Status: 'running' };
  }
}
