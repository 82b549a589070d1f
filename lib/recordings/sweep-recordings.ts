// Retention (docs/connect.md, recordings: kept 30 days): recordings that started more than 30 days ago
// are deleted, their files first and then their row, so a sweep cut short leaves rows to find the
// rest by next time. Complete or not: an orphan of a session long over goes the same way. Run
// hourly by the job worker (lib/jobs/worker.ts); every workspace's recordings at once.
import { blobs, type BlobStore } from '../blobs';
import { db } from '../db';
import { recordingFolder } from './format';

export const RECORDING_RETENTION_MS = 30 * 24 * 3600 * 1000;
const BATCH = 200;

export async function sweepExpiredRecordings(options: { now?: Date; retentionMs?: number; store?: BlobStore } = {}): Promise<number> {
  const cutoff = new Date((options.now ?? new Date()).getTime() - (options.retentionMs ?? RECORDING_RETENTION_MS));
  const store = options.store ?? blobs();
  let deleted = 0;
  for (;;) {
    const rows = await db.recording.findMany({ where: { startedAt: { lt: cutoff } }, select: { id: true }, orderBy: { startedAt: 'asc' }, take: BATCH });
    for (const { id } of rows) {
      await store.deleteFolder(recordingFolder(id));
      deleted += (await db.recording.deleteMany({ where: { id, startedAt: { lt: cutoff } } })).count;
    }
    if (rows.length < BATCH) return deleted;
  }
}
