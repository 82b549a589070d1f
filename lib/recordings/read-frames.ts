// What a player reads of a recording: the manifest (frames and tabs), one chunk of frames, and the
// end-of-session summary. The manifest and chunks are served while the recording is still being
// written (what is on storage so far); the summary only once it is finished.
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { BODY_LENGTH_HEADER } from '../api/body-length';
import { ApiError, invalidField, notFound } from '../api/errors';
import { blobs } from '../blobs';
import { chunkCountOf, readManifestLines, summarizeOrphan } from './build-manifest';
import { chunkKey, completeKey, manifestKey, parseManifest, type CompleteSummary } from './format';
import { recordingPhase } from './phase';
import { getRecordingRowOrThrow, type RecordingRow } from './read-recordings';
import { chunkIndexSchema } from './schemas';

async function manifestLinesOf(recordingId: string) {
  const text = (await blobs().get(manifestKey(recordingId)))?.toString('utf8') ?? '';
  return parseManifest(text);
}

/** GET /v1/replays/:id/manifest */
export async function getManifest(workspaceId: string, id: string) {
  const row = await getRecordingRowOrThrow(workspaceId, id);
  const { targets, frames } = readManifestLines(await manifestLinesOf(row.id));
  return {
    recordingId: row.id,
    sessionId: row.sessionLogId,
    format: row.format,
    startedAt: row.startedAt.toISOString(),
    complete: row.complete,
    chunkCount: chunkCountOf(row.chunkCount, frames),
    targets,
    frames,
  };
}

/** GET /v1/replays/:id/chunks/:index: the chunk's bytes as stored, streamed. */
export async function chunkResponse(workspaceId: string, id: string, rawIndex: string, method: string): Promise<Response> {
  const parsed = chunkIndexSchema.safeParse(rawIndex);
  if (!parsed.success) throw invalidField('index', 'use a whole number from 0');
  const row = await getRecordingRowOrThrow(workspaceId, id);
  const key = chunkKey(row.id, parsed.data);
  // The size first, and exactly that many bytes: the newest chunk of a running recording grows.
  const size = await blobs().size(key);
  if (size === null) throw notFound('chunk');
  const headers = { 'Content-Type': 'application/octet-stream', [BODY_LENGTH_HEADER]: String(size) };
  if (method === 'HEAD' || size === 0) return new Response(null, { headers });
  return new Response(toWeb(await blobs().read(key, { start: 0, end: size - 1 })), { headers });
}

/**
 * GET /v1/replays/:id/complete: complete.json with `complete: true`; for an orphaned recording the
 * same summary computed from its manifest, with `complete: false`. 409 `not_complete` while the
 * recording is being written.
 */
export async function getCompleteSummary(workspaceId: string, id: string): Promise<CompleteSummary & { complete: boolean }> {
  const row = await getRecordingRowOrThrow(workspaceId, id);
  const phase = recordingPhase(row, new Date());
  if (phase === 'recording') throw notComplete();
  if (phase === 'complete') {
    const stored = await blobs().get(completeKey(row.id));
    if (stored) return { ...(JSON.parse(stored.toString('utf8')) as CompleteSummary), complete: true };
  }
  // Orphaned, or finished without its summary file: computed from what was captured.
  return { ...(await summaryFromManifest(row)), complete: row.complete };
}

async function summaryFromManifest(row: RecordingRow): Promise<CompleteSummary> {
  return summarizeOrphan(
    {
      recordingId: row.id,
      sessionId: row.sessionLogId,
      startedAt: row.startedAt,
      chunkCount: row.chunkCount,
      droppedFrames: row.droppedFrames,
      duplicatesSkipped: row.duplicatesSkipped,
      capStopped: row.capStopped,
      truncated: row.truncated as CompleteSummary['truncated'],
      session: { endedAt: row.session.endedAt ?? row.endedAt, durationMs: row.session.durationMs },
    },
    await manifestLinesOf(row.id),
  );
}

export const notComplete = () => new ApiError('not_complete', 'the recording is still in progress; try again when its session has ended');

/** A Node stream as a fetch body (closed with the response, so an aborted download closes the file). */
export const toWeb = (stream: Readable) => Readable.toWeb(stream) as NodeReadableStream<Uint8Array> as unknown as ReadableStream<Uint8Array>;
