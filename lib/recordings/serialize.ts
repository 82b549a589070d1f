import type { Recording } from '../db/generated/client';
import type { z } from 'zod';
import type { recording as recordingAnswer } from '../openapi/resources/sessions';

/**
 * The Recording resource of docs/api.md: the spec's fields exactly, `routerInstanceId` for the
 * row's router, BigInt sizes as JSON numbers, timestamps ISO. `mp4Status` is null until an encode
 * was asked for (at the session's end or by an export).
 */
export function serializeRecording(r: Recording): z.input<typeof recordingAnswer> {
  return {
    id: r.id,
    sessionLogId: r.sessionLogId,
    routerInstanceId: r.routerId,
    providerId: r.providerId,
    profileId: r.profileId,
    startedAt: r.startedAt.toISOString(),
    endedAt: r.endedAt?.toISOString() ?? null,
    durationMs: r.durationMs,
    frameCount: r.frameCount,
    chunkCount: r.chunkCount,
    sizeBytes: Number(r.sizeBytes),
    droppedFrames: r.droppedFrames,
    duplicatesSkipped: r.duplicatesSkipped,
    format: r.format,
    complete: r.complete,
    capStopped: r.capStopped,
    truncated: r.truncated as null | 'byte-cap' | 'wallet-drained',
    mp4Status: r.mp4Status,
    mp4SizeBytes: Number(r.mp4SizeBytes),
    mp4ReadyAt: r.mp4ReadyAt?.toISOString() ?? null,
    mp4Error: r.mp4Error,
    title: r.title,
    pageCount: r.pageCount,
  };
}

export type RecordingResource = ReturnType<typeof serializeRecording>;
