// A session's downloads (docs/connect.md, "Downloads"): the files its browser saved, kept in the
// blob store as downloads/<session id>/<download id>, one SessionDownload row each. The proxy
// stores them when a session on the local pool ends (proxy/sessions/collect-downloads.ts); the API
// lists and serves them; the hourly retention sweep deletes them with the session's traces' age.
// Where the provider's browser keeps its files itself, a traced session's completed downloads are
// rows without a file (saveProviderDownloads): listed the same way, fetched from the provider.
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { blobs, type BlobStore } from '../blobs';
import { db } from '../db';

/** Per session: at most this many files and this many bytes in all are kept; later ones are left out. */
export const DOWNLOADS_MAX_FILES = 50;
export const DOWNLOADS_MAX_BYTES = 100 * 1024 * 1024;
/** Kept as long as traces (docs/connect.md): 60 days from the session's start. */
export const DOWNLOAD_RETENTION_MS = 60 * 24 * 3600 * 1000;

export const downloadFolder = (sessionId: string) => `downloads/${sessionId.toLowerCase()}`;

export interface DownloadRow {
  id: string;
  sessionLogId: string;
  name: string;
  sizeBytes: bigint;
  /** Null: the provider's browser keeps the file. */
  blobKey: string | null;
  sourceUrl: string | null;
  createdAt: Date;
}

/** Stores one file of a session: its bytes first, then its row (a row always has its file). */
export async function saveDownload(
  input: { workspaceId: string; sessionId: string; name: string; data: Buffer },
  store: BlobStore = blobs(),
): Promise<DownloadRow> {
  const id = randomUUID();
  const blobKey = `${downloadFolder(input.sessionId)}/${id}`;
  await store.put(blobKey, input.data);
  return db.sessionDownload.create({
    data: { id, workspaceId: input.workspaceId, sessionLogId: input.sessionId, name: input.name, sizeBytes: BigInt(input.data.length), blobKey },
  });
}

/**
 * Records a session's downloads that its provider's browser keeps (from its trace): name, size and
 * source, no file; as many as a session may keep (DOWNLOADS_MAX_FILES), in the order they completed.
 */
export async function saveProviderDownloads(input: {
  workspaceId: string;
  sessionId: string;
  downloads: { name: string; url: string; bytes: number; at: number }[];
}): Promise<number> {
  const kept = input.downloads.slice(0, DOWNLOADS_MAX_FILES);
  if (kept.length === 0) return 0;
  const { count } = await db.sessionDownload.createMany({
    data: kept.map((d) => ({
      workspaceId: input.workspaceId,
      sessionLogId: input.sessionId,
      name: d.name || 'download',
      sizeBytes: BigInt(Math.max(0, Math.floor(d.bytes))),
      sourceUrl: d.url || null,
      createdAt: new Date(d.at),
    })),
  });
  return count;
}

/** A session's downloads in the order they were saved, for a workspace that owns the session. */
export function listDownloads(workspaceId: string, sessionId: string): Promise<DownloadRow[]> {
  return db.sessionDownload.findMany({ where: { workspaceId, sessionLogId: sessionId }, orderBy: [{ createdAt: 'asc' }, { name: 'asc' }] });
}

/** One download of a workspace's session with a stream of its bytes, or null. */
export async function openDownload(
  workspaceId: string,
  sessionId: string,
  downloadId: string,
  store: BlobStore = blobs(),
): Promise<{ row: DownloadRow; stream: Readable | null } | null> {
  const row = await db.sessionDownload.findFirst({ where: { id: downloadId, workspaceId, sessionLogId: sessionId } });
  if (!row) return null;
  return { row, stream: row.blobKey === null ? null : await store.read(row.blobKey) };
}

/** Deletes the downloads of sessions that started before the retention cutoff: files first, then rows. */
export async function sweepExpiredDownloads(options: { now?: Date; retentionMs?: number; store?: BlobStore } = {}): Promise<number> {
  const cutoff = new Date((options.now ?? new Date()).getTime() - (options.retentionMs ?? DOWNLOAD_RETENTION_MS));
  const store = options.store ?? blobs();
  let deleted = 0;
  for (;;) {
    const sessions = await db.sessionDownload.findMany({
      where: { session: { startedAt: { lt: cutoff } } },
      select: { sessionLogId: true },
      distinct: ['sessionLogId'],
      take: 200,
    });
    for (const { sessionLogId } of sessions) {
      await store.deleteFolder(downloadFolder(sessionLogId));
      deleted += (await db.sessionDownload.deleteMany({ where: { sessionLogId } })).count;
    }
    if (sessions.length < 200) return deleted;
  }
}
