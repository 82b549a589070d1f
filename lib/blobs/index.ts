// The process's blob store, as configured (config.ts): the filesystem under DATA_DIR (default
// `.data`) or an S3-compatible bucket. Tests and tools may open their own.
import { readBlobStoreConfig, type BlobStoreConfig } from './config';
import { FsBlobStore } from './fs-store';
import { S3BlobStore, s3Client } from './s3-store';
import type { BlobStore } from './store';

export type { BlobStore, BlobWriter, ByteRange } from './store';
export { BlobNotFound } from './store';
export { checkBlobStoreConfig } from './config';

let store: BlobStore | null = null;

export function blobs(): BlobStore {
  store ??= openBlobStore(readBlobStoreConfig());
  return store;
}

export function openBlobStore(config: BlobStoreConfig): BlobStore {
  return config.kind === 'fs' ? new FsBlobStore(config.root) : new S3BlobStore(s3Client(config), config);
}
