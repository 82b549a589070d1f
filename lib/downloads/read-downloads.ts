// A session's downloads through the API (docs/api.md, Sessions; docs/connect.md, "Downloads"):
// the list, and one file streamed from the blob store as it was saved. Every query carries the
// workspace: another workspace's session or download is not found, like a missing one.
import { BODY_LENGTH_HEADER } from '../api/body-length';
import { attachmentDisposition } from '../api/content-disposition';
import { ApiError, notFound } from '../api/errors';
import { BlobNotFound } from '../blobs';
import { db } from '../db';
import { toWeb } from '../recordings/read-frames';
import { listDownloads, openDownload, type DownloadRow } from './store';
import type { z } from 'zod';
import type { sessionDownload as sessionDownloadAnswer } from '../openapi/resources/sessions';

/** The file endpoint of a download: the `url` of the list's items. */
export const downloadPath = (sessionId: string, downloadId: string) =>
  `/v1/sessions/${encodeURIComponent(sessionId)}/downloads/${encodeURIComponent(downloadId)}`;

/**
 * One item of GET /v1/sessions/:id/downloads: sizes as JSON numbers, timestamps ISO; `url` the file
 * here, null when the provider's browser keeps it (`keptBy`).
 */
export function serializeDownload(
  row: Pick<DownloadRow, 'id' | 'sessionLogId' | 'name' | 'sizeBytes' | 'createdAt' | 'blobKey' | 'sourceUrl'>,
): z.input<typeof sessionDownloadAnswer> {
  const here = row.blobKey !== null;
  return {
    id: row.id,
    name: row.name,
    sizeBytes: Number(row.sizeBytes),
    createdAt: row.createdAt.toISOString(),
    url: here ? downloadPath(row.sessionLogId, row.id) : null,
    keptBy: here ? ('service' as const) : ('provider' as const),
    sourceUrl: row.sourceUrl,
  };
}

async function assertSession(workspaceId: string, sessionId: string): Promise<void> {
  const session = await db.sessionLog.findFirst({ where: { id: sessionId, workspaceId }, select: { id: true } });
  if (!session) throw notFound('session');
}

/** GET /v1/sessions/:id/downloads: every file kept, in the order they were saved. */
export async function listSessionDownloads(workspaceId: string, sessionId: string) {
  await assertSession(workspaceId, sessionId);
  const rows = await listDownloads(workspaceId, sessionId);
  return { items: rows.map(serializeDownload), total: rows.length };
}

/** GET /v1/sessions/:id/downloads/:downloadId: the file as saved, streamed (HEAD: the same headers, no body). */
export async function downloadResponse(workspaceId: string, sessionId: string, downloadId: string, head: boolean): Promise<Response> {
  let opened: Awaited<ReturnType<typeof openDownload>>;
  try {
    opened = await openDownload(workspaceId, sessionId, downloadId);
  } catch (error) {
    // A row whose file is gone (storage cleared by hand) is a file not found, not a server error.
    if (error instanceof BlobNotFound) throw notFound('download');
    throw error;
  }
  if (!opened) {
    await assertSession(workspaceId, sessionId);
    throw notFound('download');
  }
  const { row, stream } = opened;
  // Listed from the session's trace: the file is on the provider's side (docs/connect.md, "Downloads").
  if (!stream) throw new ApiError('not_found', "this download's file is kept by the provider's browser, not by this service (keptBy: provider)");
  const headers = {
    'Content-Type': 'application/octet-stream',
    [BODY_LENGTH_HEADER]: String(row.sizeBytes),
    'Content-Disposition': attachmentDisposition(row.name),
    'Cache-Control': 'private, no-store',
    'X-Content-Type-Options': 'nosniff',
  };
  if (head || row.sizeBytes === 0n) {
    stream.destroy();
    return new Response(null, { headers });
  }
  return new Response(toWeb(stream), { headers });
}
