// POST /v1/replays/:id/export (docs/api.md, Recordings, "Export"): starts the MP4 encode of a
// finished recording, or of what an orphaned one captured. A video already made is answered as
// such, an encode already queued or running is not asked for twice, and a recording still being
// written is 409 `not_complete`.
import { recordingPhase } from './phase';
import { notComplete } from './read-frames';
import { getRecordingRowOrThrow } from './read-recordings';
import { requestEncode } from './request-encode';
import { videoFailed, videoIsReady, videoRunning } from './video-status';

export type ExportResult = { mp4Status: 'queued' | 'running' } | { alreadyReady: true; mp4Status: 'ready' };

/** Two exports racing: the loser reads the row again, at most this many times. */
const ATTEMPTS = 3;

export async function exportRecording(workspaceId: string, id: string): Promise<ExportResult> {
  for (let attempt = 1; ; attempt++) {
    const row = await getRecordingRowOrThrow(workspaceId, id);
    if (await videoIsReady(row)) return { alreadyReady: true, mp4Status: 'ready' };
    if (row.mp4Status === 'queued' || row.mp4Status === 'running') return { mp4Status: row.mp4Status };
    if (recordingPhase(row, new Date()) === 'recording') throw notComplete();

    // Never started, failed, or "ready" with its file gone. The status moves only from the state
    // just read, so of two exports at once one starts the encode and the other reports it.
    if (!(await videoRunning(row.id, { workspaceId, from: [row.mp4Status] }))) {
      if (attempt < ATTEMPTS) continue;
      throw new Error(`recording ${row.id}: its video status kept changing during an export`);
    }
    try {
      await requestEncode(row.id);
    } catch (error) {
      await videoFailed(row.id, 'the encode could not be queued; export again', { from: ['running'] });
      throw error;
    }
    return { mp4Status: 'running' };
  }
}
