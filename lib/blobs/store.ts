// Blob storage (recording chunks and manifests, MP4s, trace files): one interface, implemented on
// the filesystem under the data directory (fs-store.ts) and on an S3-compatible bucket
// (s3-store.ts, where a writer becomes a multipart upload); index.ts picks one from the
// configuration. The code that records or serves blobs knows neither. One difference shows: a
// blob being written is readable as it grows on the filesystem, but appears on S3 only once its
// writer has ended. Keys are relative paths of lower-case letters, digits and `._-/`, never `..`:
// they are made by the service, never taken from a request.
import type { Readable } from 'node:stream';

export interface BlobWriter {
  /**
   * Queues bytes; false when the writer's buffer is over its mark (the caller should slow down or
   * drop). Never throws for a failed write: the writer then drops what it gets and end() rejects
   * (a capture must not take its session down with it).
   */
  write(data: Buffer | string): boolean;
  /** Settles once the buffer is under its mark again, or the writer failed (end() says how). */
  drained(): Promise<void>;
  /** Bytes queued and not yet on storage. */
  readonly pendingBytes: number;
  /** Bytes accepted so far. */
  readonly bytesWritten: number;
  /** Flushes and closes the blob; it is complete once this resolves, and rejects when it could not be stored. */
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
