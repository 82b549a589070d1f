// GET /v1/replays/:id/export/download: the MP4, streamed from blob storage (never held in memory),
// with HTTP range requests so a player can seek. 409 `not_ready` until the encode is done.
import { BODY_LENGTH_HEADER } from '../api/body-length';
import { ApiError } from '../api/errors';
import { blobs, type BlobStore } from '../blobs';
import { parseByteRange } from './byte-range';
import { videoKey } from './format';
import { toWeb } from './read-frames';
import { getRecordingRowOrThrow } from './read-recordings';

export interface VideoRequest {
  /** The request's `Range` header. */
  range: string | null;
  /** `Content-Disposition: inline` (a `<video>` element) rather than `attachment` (a download). */
  inline: boolean;
  /** HEAD: the same headers, no body (and no file opened). */
  head: boolean;
}

export async function videoResponse(workspaceId: string, id: string, request: VideoRequest): Promise<Response> {
  const row = await getRecordingRowOrThrow(workspaceId, id);
  if (row.mp4Status !== 'ready') {
    const status = row.mp4Status ?? 'not started';
    throw new ApiError('not_ready', `the video is not ready (mp4Status: ${status}); POST /v1/replays/${row.id}/export starts the encode`);
  }
  return storedVideoResponse(blobs(), row, request);
}

/** The MP4 of an encoded recording from `store`: whole, or the one range asked for (206). */
export async function storedVideoResponse(store: BlobStore, row: { id: string; sessionLogId: string }, request: VideoRequest): Promise<Response> {
  const key = videoKey(row.id);
  const size = await store.size(key);
  if (size === null) throw new ApiError('not_ready', `the video file is missing; POST /v1/replays/${row.id}/export makes it again`);

  const range = parseByteRange(request.range, size);
  if (range.kind === 'unsatisfiable') {
    throw new ApiError('range_not_satisfiable', `the range ${request.range} is outside the video (${size} bytes)`, {
      'Content-Range': `bytes */${size}`,
      'Accept-Ranges': 'bytes',
    });
  }
  // The session id names the file: it is what the rest of the product shows for a session.
  const disposition = `${request.inline ? 'inline' : 'attachment'}; filename="${row.sessionLogId.replace(/[^A-Za-z0-9._-]/g, '_')}.mp4"`;
  const headers: Record<string, string> = { 'Content-Type': 'video/mp4', 'Accept-Ranges': 'bytes', 'Content-Disposition': disposition };
  const bytes = range.kind === 'partial' ? { start: range.start, end: range.end } : size > 0 ? { start: 0, end: size - 1 } : null;
  headers[BODY_LENGTH_HEADER] = String(bytes ? bytes.end - bytes.start + 1 : 0);
  if (range.kind === 'partial') headers['Content-Range'] = `bytes ${range.start}-${range.end}/${size}`;
  const status = range.kind === 'partial' ? 206 : 200;
  if (request.head || !bytes) return new Response(null, { status, headers });
  return new Response(toWeb(await store.read(key, bytes)), { status, headers });
}
