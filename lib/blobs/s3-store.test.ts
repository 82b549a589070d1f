// The S3 store's own promises, beyond the contract every store keeps (store-contract.test.ts), on a
// real s3rver: which requests a writer makes (one PutObject, or parts of 5 MiB but the last), a
// failed upload aborted and the old blob left in place, a server that stops mid-upload, keys kept
// under the configured prefix, and the settings' credentials being the ones sent. The requests are
// watched (and one made to fail) by a middleware on the client.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { startS3Server, type S3Server } from '../../e2e/support/s3-server';
import { readBlobStoreConfig, type S3Config } from './config';
import { openBlobStore } from './index';
import { S3BlobStore, s3Client } from './s3-store';
import { PART_BYTES } from './s3-writer';

let server: S3Server;
before(async () => {
  server = await startS3Server();
});
after(() => server.close());

let n = 0;
const configOf = (env: Record<string, string>, prefix = `s3-${n++}`) =>
  readBlobStoreConfig({ ...env, BLOB_STORE: `s3://${server.bucket}/${prefix}` }) as S3Config;

interface Request {
  command: string;
  bytes?: number;
  partNumber?: number;
}

/** A store whose client records every request; `fail` may refuse one before it is sent. */
function watchedStore(config: S3Config, fail: (request: Request) => boolean = () => false) {
  const client = s3Client(config);
  const requests: Request[] = [];
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { Body?: Buffer; PartNumber?: number };
      const request = { command: context.commandName as string, bytes: input.Body?.length, partNumber: input.PartNumber };
      requests.push(request);
      if (fail(request)) throw Object.assign(new Error('refused by the test'), { name: 'InjectedFailure' });
      return next(args);
    },
    { step: 'initialize' },
  );
  return { store: new S3BlobStore(client, config), client, requests };
}

const commands = (requests: Request[]) => requests.map((r) => r.command.replace(/Command$/, ''));

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

test('a blob of at most one part is one PutObject; a larger one goes in parts of 5 MiB (the last smaller) and is completed once', async () => {
  const { store, requests } = watchedStore(configOf(server.env));
  const small = store.writer('recordings/rec_1/chunks/000000.bin');
  small.write(Buffer.alloc(PART_BYTES - 1));
  small.write(Buffer.alloc(1));
  await small.end();
  assert.deepEqual(commands(requests), ['PutObject']);
  assert.equal(requests[0]!.bytes, PART_BYTES);

  requests.length = 0;
  const large = store.writer('recordings/rec_1/video.mp4');
  for (let i = 0; i < 21; i++) if (!large.write(Buffer.alloc(512 * 1024, i))) await large.drained();
  await large.end();
  assert.deepEqual(commands(requests), ['CreateMultipartUpload', 'UploadPart', 'UploadPart', 'UploadPart', 'CompleteMultipartUpload']);
  assert.deepEqual(
    requests.filter((r) => r.partNumber).map((r) => [r.partNumber, r.bytes]),
    [
      [1, PART_BYTES],
      [2, PART_BYTES],
      [3, 512 * 1024],
    ],
  );
  assert.equal(await store.size('recordings/rec_1/video.mp4'), 21 * 512 * 1024);
});

test('a part that fails: end() rejects naming the blob, the upload is aborted, and the blob it was to replace stays', async () => {
  const { store, requests } = watchedStore(configOf(server.env), (r) => r.command === 'UploadPartCommand' && r.partNumber === 2);
  await store.put('recordings/rec_2/video.mp4', 'the old video');
  const writer = store.writer('recordings/rec_2/video.mp4');
  for (let i = 0; i < 3 * 10; i++) if (!writer.write(Buffer.alloc(512 * 1024))) await writer.drained();
  await assert.rejects(writer.end(), /could not store blob s3-\d+\/recordings\/rec_2\/video\.mp4: refused by the test/);
  assert.ok(commands(requests).includes('AbortMultipartUpload'), `aborted: ${commands(requests).join(' ')}`);
  assert.ok(!commands(requests).includes('CompleteMultipartUpload'));
  assert.equal((await store.get('recordings/rec_2/video.mp4'))?.toString(), 'the old video');
});

test('the server stops mid-upload: later writes are dropped without a throw, end() rejects', { timeout: 60_000 }, async () => {
  const other = await startS3Server();
  try {
    const { store, requests } = watchedStore(configOf(other.env));
    const writer = store.writer('recordings/rec_3/video.mp4');
    writer.write(Buffer.alloc(PART_BYTES + 1024));
    // The first part is stored: what is left pending is what did not make a part.
    await until(() => writer.pendingBytes === 1024, 'the first part to be stored');
    await other.close();
    writer.write(Buffer.alloc(PART_BYTES));
    // The second part could not go (after the SDK's retries): only the unsent tail is pending.
    await until(() => writer.pendingBytes === 1024, 'the second part to fail');
    const written = writer.bytesWritten;
    assert.equal(writer.write(Buffer.alloc(PART_BYTES)), false);
    assert.equal(writer.bytesWritten, written, 'dropped');
    await writer.drained();
    await assert.rejects(writer.end(), /could not store blob .*ECONNREFUSED/);
    assert.equal(writer.pendingBytes, 0);
    assert.ok(commands(requests).includes('AbortMultipartUpload'), "an abort was tried (the server is gone; the bucket's lifecycle rule is the fallback)");
  } finally {
    await other.close();
  }
});

test('blobs live under the prefix of BLOB_STORE: stores of other prefixes in the bucket neither see nor delete them', async () => {
  const one = watchedStore(configOf(server.env, 'tenant-a/blobs'));
  const two = openBlobStore(configOf(server.env, 'tenant-b'));
  await one.store.put('traces/trc_1/complete.json', '{"a":1}');
  await two.put('traces/trc_1/complete.json', '{"b":2}');
  const head = (client: S3Client, Key: string) => client.send(new HeadObjectCommand({ Bucket: server.bucket, Key }));
  assert.equal((await head(one.client, 'tenant-a/blobs/traces/trc_1/complete.json')).ContentLength, 7);
  await two.deleteFolder('traces/trc_1');
  assert.equal(await two.size('traces/trc_1/complete.json'), null);
  assert.equal((await one.store.get('traces/trc_1/complete.json'))?.toString(), '{"a":1}');
});

test('the credentials of S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY are the ones sent (s3rver checks the key id)', async () => {
  await openBlobStore(configOf(server.env)).put('a/b', 'x');
  const stranger = openBlobStore(configOf({ ...server.env, S3_ACCESS_KEY_ID: 'not-a-known-key' }));
  await assert.rejects(stranger.put('a/b', 'x'), (error: Error) => error.name === 'InvalidAccessKeyId');
});

test('a missing bucket is an error, not a missing blob', async () => {
  const store = openBlobStore(readBlobStoreConfig({ ...server.env, BLOB_STORE: 's3://no-such-bucket' }));
  await assert.rejects(store.get('a/b'), (error: Error) => error.name === 'NoSuchBucket');
  await assert.rejects(store.read('a/b'), (error: Error) => error.name === 'NoSuchBucket');
});
