// The filesystem blob store: <DATA_DIR>/blobs/<key>. Files are written with mode 0600 in folders
// of mode 0700 (tenant pages' pixels live here). A blob being written is readable as it grows,
// which is what lets a recording be watched before it ends.
import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { assertKey, BlobNotFound, type BlobStore, type BlobWriter, type ByteRange } from './store';

/** How many bytes a writer holds in memory before write() says to slow down. */
const HIGH_WATER = 4 * 1024 * 1024;

export class FsBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  private file(key: string): string {
    assertKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  writer(key: string): BlobWriter {
    const file = this.file(key);
    return new FsWriter(file);
  }

  async put(key: string, data: Buffer | string): Promise<void> {
    const file = this.file(key);
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    // Written beside and renamed: a reader never sees half a blob.
    const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temp, data, { mode: 0o600 });
    await rename(temp, file);
  }

  async get(key: string): Promise<Buffer | null> {
    return readFile(this.file(key)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
  }

  async size(key: string): Promise<number | null> {
    return stat(this.file(key)).then(
      (s) => s.size,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null;
        throw error;
      },
    );
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.file(key);
    if ((await this.size(key)) === null) throw new BlobNotFound(key);
    return createReadStream(file, range ? { start: range.start, end: range.end } : {});
  }

  async deleteFolder(prefix: string): Promise<void> {
    await rm(this.file(prefix), { recursive: true, force: true });
  }
}

class FsWriter implements BlobWriter {
  private stream: WriteStream | null = null;
  private opened: Promise<void>;
  private early: (Buffer | string)[] = [];
  private earlyBytes = 0;
  private failed: Error | null = null;
  bytesWritten = 0;

  constructor(file: string) {
    this.opened = mkdir(path.dirname(file), { recursive: true, mode: 0o700 }).then(() => {
      const stream = createWriteStream(file, { mode: 0o600, highWaterMark: HIGH_WATER });
      stream.on('error', (error) => (this.failed = error));
      for (const data of this.early) stream.write(data);
      this.early = [];
      this.earlyBytes = 0;
      this.stream = stream;
    });
    this.opened.catch((error: Error) => (this.failed = error));
  }

  get pendingBytes(): number {
    if (this.stream) return this.stream.writableLength;
    return this.earlyBytes;
  }

  write(data: Buffer | string): boolean {
    if (this.failed) return false;
    const bytes = Buffer.byteLength(data);
    this.bytesWritten += bytes;
    if (this.stream) return this.stream.write(data);
    this.early.push(data);
    this.earlyBytes += bytes;
    return this.pendingBytes < HIGH_WATER;
  }

  async drained(): Promise<void> {
    await this.opened.catch(() => {});
    const stream = this.stream;
    // 'error' makes once() reject: the failure is end()'s to report.
    if (stream && !this.failed && stream.writableNeedDrain) await once(stream, 'drain').catch(() => {});
  }

  async end(): Promise<void> {
    await this.opened;
    if (this.failed) throw this.failed;
    const stream = this.stream!;
    await new Promise<void>((resolve, reject) => {
      stream.once('error', reject);
      stream.end(() => resolve());
    });
  }
}
