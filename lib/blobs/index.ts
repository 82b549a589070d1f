// The process's blob store: the filesystem under DATA_DIR (default `.data`) unless a later
// release configures an S3-compatible one. Tests and tools may pass their own root.
import path from 'node:path';
import { FsBlobStore } from './fs-store';
import type { BlobStore } from './store';

export type { BlobStore, BlobWriter, ByteRange } from './store';
export { BlobNotFound } from './store';

let store: BlobStore | null = null;

export function blobs(): BlobStore {
  store ??= new FsBlobStore(path.join(path.resolve(/*turbopackIgnore: true*/ process.env.DATA_DIR ?? '.data'), 'blobs'));
  return store;
}
