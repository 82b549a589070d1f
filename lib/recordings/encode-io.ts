// The encoder's reads and writes of blob storage (encode-video.ts): frames out of their chunks, in
// capture order, and the finished MP4 into the store.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { BlobStore } from '../blobs';
import { EncodeError } from './ffmpeg';
import { chunkKey, type FrameLine } from './format';

/** Reads frames chunk by chunk, in capture order: one chunk in memory at a time. */
export class ChunkReader {
  private index = -1;
  private chunk: Buffer | null = null;

  constructor(
    private readonly store: BlobStore,
    private readonly recordingId: string,
  ) {}

  async frame(line: FrameLine): Promise<Buffer> {
    if (line.chunk !== this.index) {
      this.chunk = await this.store.get(chunkKey(this.recordingId, line.chunk));
      this.index = line.chunk;
    }
    if (!this.chunk || line.offset + line.length > this.chunk.length) throw new EncodeError(`chunk ${line.chunk} changed during the encode`);
    // A copy: a tab's newest frame may be shown long after its chunk was let go.
    return Buffer.from(this.chunk.subarray(line.offset, line.offset + line.length));
  }
}

/** The file into the store through a writer (an S3 store makes it a multipart upload), with backpressure. */
export async function copyToBlob(store: BlobStore, key: string, file: string): Promise<number> {
  const writer = store.writer(key);
  for await (const piece of createReadStream(file, { highWaterMark: 1 << 20 })) {
    if (!writer.write(piece as Buffer)) await writer.drained();
  }
  await writer.end();
  return (await stat(file)).size;
}
