// Captures leave in two ways, both row-then-files or files-then-row so that nothing is left
// without a way to find it: the API's delete (the row first: a capture still running finds its row
// gone at the end and deletes what it wrote since), and the hourly retention sweep (the files
// first: a sweep cut short leaves rows that find the rest next time).
import { notFound } from '../api/errors';
import { blobs, type BlobStore } from '../blobs';
import type { CaptureKind, CaptureScope } from './kinds';

const BATCH = 200;

/** DELETE of one capture in the caller's scope: its row, then its folder. 404 outside the scope. */
export async function deleteCapture(kind: CaptureKind, scope: CaptureScope, id: string): Promise<{ id: string }> {
  // One statement: a capture outside the scope, or already gone, deletes nothing and is a 404.
  if ((await kind.deleteRow(id, { scope })) === 0) throw notFound(kind.noun);
  await blobs().deleteFolder(kind.folder(id));
  return { id };
}

export interface SweepOptions {
  now?: Date;
  retentionMs?: number;
  store?: BlobStore;
}

/** Every workspace's captures of this kind past their retention: files, then row. How many rows went. */
export async function sweepExpired(kind: CaptureKind, options: SweepOptions = {}): Promise<number> {
  const cutoff = new Date((options.now ?? new Date()).getTime() - (options.retentionMs ?? kind.retentionMs));
  const store = options.store ?? blobs();
  let deleted = 0;
  for (;;) {
    const rows = await kind.startedBefore(cutoff, BATCH);
    for (const { id } of rows) {
      await store.deleteFolder(kind.folder(id));
      deleted += await kind.deleteRow(id, { startedBefore: cutoff });
    }
    if (rows.length < BATCH) return deleted;
  }
}
