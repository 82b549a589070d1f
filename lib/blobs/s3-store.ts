// The S3 blob store: blob `<key>` is object `<prefix><key>` of one bucket, on AWS or any
// S3-compatible server (MinIO, R2, ...). Writers are s3-writer.ts. The bucket must exist; what the
// credentials need is in docs/architecture.md ("Blob storage").
import type { Readable } from 'node:stream';
import { DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { S3Config } from './config';
import { S3Writer } from './s3-writer';
import { assertKey, BlobNotFound, type BlobStore, type BlobWriter, type ByteRange } from './store';

/** The most keys one ListObjectsV2 page holds, and one DeleteObjects takes. */
const BATCH = 1000;

export function s3Client(config: S3Config): S3Client {
  return new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    // Compatible servers serve buckets by path; their host names are not per bucket.
    forcePathStyle: config.endpoint !== undefined,
    credentials: config.credentials,
    // Recent SDKs checksum every request by default, sending streamed bodies as aws-chunked with a
    // trailer, which many compatible servers refuse or (s3rver) store framing and all. Checksums
    // stay where the API requires them (DeleteObjects).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

export class S3BlobStore implements BlobStore {
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(
    private readonly client: S3Client,
    location: Pick<S3Config, 'bucket' | 'prefix'>,
  ) {
    this.bucket = location.bucket;
    this.prefix = location.prefix;
  }

  private objectKey(key: string): string {
    assertKey(key);
    return this.prefix + key;
  }

  writer(key: string): BlobWriter {
    return new S3Writer({ client: this.client, bucket: this.bucket, key: this.objectKey(key) });
  }

  async put(key: string, data: Buffer | string): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key), Body: typeof data === 'string' ? Buffer.from(data) : data }));
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      const bytes = await object.Body!.transformToByteArray();
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }))).ContentLength ?? 0;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    try {
      const Range = range ? `bytes=${range.start}-${range.end}` : undefined;
      // In Node the body is the HTTP response itself: destroying it (an aborted download) closes the request.
      return (await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key), Range }))).Body as Readable;
    } catch (error) {
      if (isMissing(error)) throw new BlobNotFound(key);
      throw error;
    }
  }

  async deleteFolder(prefix: string): Promise<void> {
    const folder = `${this.objectKey(prefix)}/`;
    let ContinuationToken: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: folder, MaxKeys: BATCH, ContinuationToken }));
      const keys = (page.Contents ?? []).map((object) => ({ Key: object.Key! }));
      for (let at = 0; at < keys.length; at += BATCH) {
        const result = await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys.slice(at, at + BATCH), Quiet: true } }));
        const failed = result.Errors ?? [];
        if (failed.length > 0)
          throw new Error(`could not delete ${failed.length} blobs under ${prefix}: ${failed[0]!.Code} ${failed[0]!.Message ?? ''}`.trim());
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }
}

/** No such object: GetObject's NoSuchKey, HeadObject's bare 404. A missing bucket is not this (GetObject says NoSuchBucket). */
function isMissing(error: unknown): boolean {
  const name = (error as Error).name;
  return name === 'NoSuchKey' || name === 'NotFound';
}
