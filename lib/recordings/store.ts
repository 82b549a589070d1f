// A recording's row through its capture (docs/recordings.md): created when the session starts (so
// the session shows `hasRecording` and the recording is listed while it runs), finished with its
// summary when the session ends, then handed to the encoder. The session row comes first (the
// recording refers to it), so the proxy calls `createRecording` after the session's insert.
import { db } from '../db';
import type { CompleteSummary } from './format';

export interface RecordingStart {
  id: string;
  workspaceId: string;
  sessionLogId: string;
  routerId: string;
  providerId: string | null;
  profileId: string | null;
  startedAt: Date;
}

export async function createRecording(start: RecordingStart): Promise<void> {
  await db.recording.create({ data: { ...start, format: 'jpeg' } });
}

/** The end of the capture: the summary's figures, `complete`, and the video queued for encoding. */
export async function finishRecording(summary: CompleteSummary): Promise<boolean> {
  const { count } = await db.recording.updateMany({
    where: { id: summary.recordingId },
    data: {
      endedAt: new Date(summary.endedAt),
      durationMs: summary.durationMs,
      frameCount: summary.frameCount,
      chunkCount: summary.chunkCount,
      sizeBytes: BigInt(summary.sizeBytes),
      droppedFrames: summary.droppedFrames,
      duplicatesSkipped: summary.duplicatesSkipped,
      capStopped: summary.capStopped,
      truncated: summary.truncated,
      title: summary.title ?? null,
      pageCount: summary.pageCount ?? 0,
      complete: true,
      mp4Status: 'queued',
    },
  });
  // Deleted while it ran (DELETE /v1/replays/:id): nothing to encode.
  return count === 1;
}
