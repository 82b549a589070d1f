// A blob written to S3 as it comes. Bytes are held until they make a part: a blob that never grows
// past one part is a single PutObject when it ends; a larger one becomes a multipart upload whose
// parts go out while the next one fills, and is completed by end(). A failed request fails the
// writer: what it is given next is dropped, and end() aborts the upload (S3 keeps, and bills, the
// parts of an upload nobody completes) and rejects.
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  UploadPartCommand,
  type CompletedPart,
  type S3Client,
} from '@aws-sdk/client-s3';
import type { BlobWriter } from './store';

/** S3's least part size (but for the last one); R2 also wants every part but the last of one size. */
export const PART_BYTES = 5 * 1024 * 1024;
/** A part filling and two on their way: past that, write() says to slow down. */
const HIGH_WATER = 3 * PART_BYTES;

export interface S3Object {
  client: S3Client;
  bucket: string;
  key: string;
}

export class S3Writer implements BlobWriter {
  bytesWritten = 0;
  private held: Buffer[] = [];
  private heldBytes = 0;
  private sendingBytes = 0;
  private uploadId: Promise<string> | null = null;
  /** In part-number order; a part that failed is null (and the writer failed). */
  private readonly parts: Promise<CompletedPart | null>[] = [];
  private failed: Error | null = null;
  private ended: Promise<void> | null = null;
  private waiters: (() => void)[] = [];

  constructor(private readonly object: S3Object) {}

  get pendingBytes(): number {
    return this.heldBytes + this.sendingBytes;
  }

  write(data: Buffer | string): boolean {
    if (this.ended) throw new Error(`write after end of blob ${this.object.key}`);
    if (this.failed) return false;
    const buffer = typeof data === 'string' ? Buffer.from(data) : data;
    this.bytesWritten += buffer.length;
    this.held.push(buffer);
    this.heldBytes += buffer.length;
    // Strictly more than a part, so the last part, sent by end(), is never empty.
    while (this.heldBytes > PART_BYTES) this.sendPart(this.take(PART_BYTES));
    return this.pendingBytes < HIGH_WATER;
  }

  drained(): Promise<void> {
    if (this.failed || this.pendingBytes < HIGH_WATER) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  end(): Promise<void> {
    this.ended ??= this.finish();
    return this.ended;
  }

  private async finish(): Promise<void> {
    const { client, bucket, key } = this.object;
    try {
      if (this.failed) throw this.failed;
      if (!this.uploadId) {
        const body = this.take(this.heldBytes);
        await this.sending(body.length, client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body })));
        return;
      }
      this.sendPart(this.take(this.heldBytes));
      const parts = await Promise.all(this.parts);
      if (this.failed) throw this.failed;
      await client.send(
        new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: await this.uploadId, MultipartUpload: { Parts: parts as CompletedPart[] } }),
      );
    } catch (error) {
      this.fail(error as Error);
      await this.abort();
      throw new Error(`could not store blob ${key}: ${(error as Error).message}`, { cause: error });
    } finally {
      this.held = [];
      this.heldBytes = 0;
    }
  }

  /** The first `bytes` held, as one buffer. */
  private take(bytes: number): Buffer {
    const all = Buffer.concat(this.held, this.heldBytes);
    this.held = all.length > bytes ? [all.subarray(bytes)] : [];
    this.heldBytes = all.length - bytes;
    return all.subarray(0, bytes);
  }

  private sendPart(body: Buffer): void {
    const { client, bucket, key } = this.object;
    this.uploadId ??= client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key })).then((created) => created.UploadId!);
    const PartNumber = this.parts.length + 1;
    const sent = this.uploadId.then((UploadId) => client.send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber, Body: body })));
    this.parts.push(
      this.sending(body.length, sent).then(
        (part) => ({ PartNumber, ETag: part.ETag }),
        (error: Error) => {
          this.fail(error);
          return null;
        },
      ),
    );
  }

  /** A request carrying `bytes`, counted as pending until it settles. */
  private async sending<T>(bytes: number, request: Promise<T>): Promise<T> {
    this.sendingBytes += bytes;
    try {
      return await request;
    } finally {
      this.sendingBytes -= bytes;
      this.wake();
    }
  }

  private fail(error: Error): void {
    this.failed ??= error;
    this.wake();
  }

  private wake(): void {
    if (!this.failed && this.pendingBytes >= HIGH_WATER) return;
    for (const resolve of this.waiters.splice(0)) resolve();
  }

  private async abort(): Promise<void> {
    const uploadId = await this.uploadId?.catch(() => null);
    if (!uploadId) return;
    // Parts still on their way would land after the abort.
    await Promise.all(this.parts);
    const { client, bucket, key } = this.object;
    await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId })).catch(() => {
      // Left to the bucket's rule for incomplete multipart uploads (docs/architecture.md, "Blob storage").
    });
  }
}
