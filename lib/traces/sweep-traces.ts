// Retention (docs/connect.md, traces: kept 60 days): traces that started more than 60 days ago are
// deleted, their files first and then their row, so a sweep cut short leaves rows to find the rest
// by next time. Complete or not. Run hourly by the job worker (lib/jobs/worker.ts) in the same job
// as the recordings' sweep; every workspace's traces at once.
import { blobs, type BlobStore } from '../blobs';
import { db } from '../db';
import { traceFolder } from './format';

export const TRACE_RETENTION_MS = 60 * 24 * 3600 * 1000;
const BATCH = 200;

export async function sweepExpiredTraces(options: { now?: Date; retentionMs?: number; store?: BlobStore } = {}): Promise<number> {
  const cutoff = new Date((options.now ?? new Date()).getTime() - (options.retentionMs ?? TRACE_RETENTION_MS));
  const store = options.store ?? blobs();
  let deleted = 0;
  for (;;) {
    const rows = await db.trace.findMany({ where: { startedAt: { lt: cutoff } }, select: { id: true }, orderBy: { startedAt: 'asc' }, take: BATCH });
    for (const { id } of rows) {
      await store.deleteFolder(traceFolder(id));
      deleted += (await db.trace.deleteMany({ where: { id, startedAt: { lt: cutoff } } })).count;
    }
    if (rows.length < BATCH) return deleted;
  }
}
