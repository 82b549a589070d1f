// The blob store's settings: the filesystem by default, `s3://bucket[/prefix]` with its S3_*
// settings, and every malformed value refused with a sentence naming the variable and never
// repeating a secret.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { checkBlobStoreConfig, describeBlobStore, readBlobStoreConfig } from './config';

test('unset or "fs": the filesystem under DATA_DIR', () => {
  assert.deepEqual(readBlobStoreConfig({}), { kind: 'fs', root: path.resolve('.data', 'blobs') });
  assert.deepEqual(readBlobStoreConfig({ BLOB_STORE: 'fs', DATA_DIR: '/srv/data' }), { kind: 'fs', root: '/srv/data/blobs' });
  assert.deepEqual(readBlobStoreConfig({ BLOB_STORE: '' }), readBlobStoreConfig({}));
});

test("s3://bucket[/prefix]: AWS in us-east-1 with the SDK's own credentials unless told otherwise", () => {
  assert.deepEqual(readBlobStoreConfig({ BLOB_STORE: 's3://recordings' }), {
    kind: 's3',
    bucket: 'recordings',
    prefix: '',
    endpoint: undefined,
    region: 'us-east-1',
    credentials: undefined,
  });
  assert.equal((readBlobStoreConfig({ BLOB_STORE: 's3://my.bucket-1/' }) as { prefix: string }).prefix, '');
  assert.equal((readBlobStoreConfig({ BLOB_STORE: 's3://my.bucket-1/browser_router/prod/' }) as { prefix: string }).prefix, 'browser_router/prod/');
  assert.deepEqual(
    readBlobStoreConfig({
      BLOB_STORE: 's3://blobs/x',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_REGION: 'auto',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
    }),
    {
      kind: 's3',
      bucket: 'blobs',
      prefix: 'x/',
      endpoint: 'http://127.0.0.1:9000',
      region: 'auto',
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
    },
  );
});

test('malformed values are refused, naming the variable', () => {
  const refused: [Record<string, string>, RegExp][] = [
    [{ BLOB_STORE: 'gs://bucket' }, /BLOB_STORE must be "fs" or "s3:\/\/<bucket>\[\/<prefix>\]", got "gs:\/\/bucket"/],
    [{ BLOB_STORE: 's3:/bucket' }, /BLOB_STORE must be/],
    [{ BLOB_STORE: 'S3://bucket' }, /BLOB_STORE must be/],
    [{ BLOB_STORE: 's3://' }, /BLOB_STORE: the bucket name/],
    [{ BLOB_STORE: 's3://My_Bucket' }, /BLOB_STORE: the bucket name/],
    [{ BLOB_STORE: 's3://bucket//prefix' }, /BLOB_STORE: the prefix/],
    [{ BLOB_STORE: 's3://bucket/a/../b' }, /BLOB_STORE: the prefix/],
    [{ BLOB_STORE: 's3://bucket/with space' }, /BLOB_STORE: the prefix/],
    [{ BLOB_STORE: 's3://bucket', S3_ENDPOINT: '127.0.0.1:9000' }, /S3_ENDPOINT must be an http:\/\/ or https:\/\/ address/],
    [{ BLOB_STORE: 's3://bucket', S3_ENDPOINT: 'not a url' }, /S3_ENDPOINT must be/],
    [{ BLOB_STORE: 's3://bucket', S3_REGION: 'US East' }, /S3_REGION must be a region name/],
    [{ BLOB_STORE: 's3://bucket', S3_ACCESS_KEY_ID: 'id' }, /S3_ACCESS_KEY_ID is set without S3_SECRET_ACCESS_KEY/],
    [{ BLOB_STORE: 's3://bucket', S3_SECRET_ACCESS_KEY: 'secret' }, /S3_SECRET_ACCESS_KEY is set without S3_ACCESS_KEY_ID/],
    [{ S3_ENDPOINT: 'http://127.0.0.1:9000', S3_REGION: 'auto' }, /S3_ENDPOINT, S3_REGION set, but BLOB_STORE is not an s3:\/\/ address/],
  ];
  for (const [env, message] of refused) {
    assert.throws(() => checkBlobStoreConfig(env), message, JSON.stringify(env));
  }
});

test('a secret given where it does not belong is never repeated', () => {
  const secret = 'wJalrXUtnFEMI/K7MDENG';
  for (const env of [
    { BLOB_STORE: `s3://AKIDEXAMPLE:${secret}@bucket` },
    { BLOB_STORE: 's3://bucket', S3_ENDPOINT: `https://AKIDEXAMPLE:${secret}@minio.example.com` },
    { BLOB_STORE: 's3://bucket', S3_SECRET_ACCESS_KEY: secret },
    { S3_SECRET_ACCESS_KEY: secret },
  ]) {
    assert.throws(
      () => checkBlobStoreConfig(env),
      (error: Error) => !error.message.includes(secret) && /S3_|BLOB_STORE/.test(error.message),
    );
  }
  const config = readBlobStoreConfig({
    BLOB_STORE: 's3://bucket/p',
    S3_ENDPOINT: 'http://127.0.0.1:9000',
    S3_ACCESS_KEY_ID: 'id',
    S3_SECRET_ACCESS_KEY: secret,
  });
  assert.equal(describeBlobStore(config), 's3://bucket/p/ at http://127.0.0.1:9000');
});
