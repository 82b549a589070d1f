// Blob storage (recording chunks and manifests, MP4s, trace files): one interface, a filesystem
// implementation under the data directory (fs-store.ts). An S3-compatible store replaces it by
// implementing the same interface (a writer becomes a multipart upload), without touching the
// code that records or serves blobs. Keys are relative paths of lower-case letters, digits and
// `._-/`, never `..`: they are made by the service, never taken from a request.
import type { Readable } from 'node:stream';

export interface BlobWriter {
  /** Queues bytes; false when the writer's buffer is over its mark (the caller should slow down or drop). */
  write(data: Buffer | string): boolean;
  /** Bytes queued and not yet on storage. */
  readonly pendingBytes: number;
  /** Bytes accepted so far. */
  readonly bytesWritten: number;
  /** Flushes and closes the blob; it is complete once this resolves. */
  end(): Promise<void>;
}

export interface ByteRange {
  start: number;
  /** Inclusive, like an HTTP range. */
  end: number;
}

export interface BlobStore {
  /** Opens a blob for writing from its first byte (an existing blob of the key is replaced). */
  writer(key: string): BlobWriter;
  put(key: string, data: Buffer | string): Promise<void>;
  /** The whole blob, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  /** The blob's size, or null when there is none. */
  size(key: string): Promise<number | null>;
  /** A stream of the blob (or of a byte range of it); fails with BlobNotFound when there is none. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** Deletes every blob whose key starts with `prefix/` (a recording's folder). */
  deleteFolder(prefix: string): Promise<void>;
}

export class BlobNotFound extends Error {
  constructor(key: string) {
    super(`no blob ${key}`);
  }
}

const KEY = /^[a-z0-9_][a-z0-9._-]*(\/[a-z0-9_][a-z0-9._-]*)*$/;

export function assertKey(key: string): void {
  if (!KEY.test(key) || key.split('/').some((part) => part === '..' || part === '.')) throw new Error(`invalid blob key ${JSON.stringify(key)}`);
}
