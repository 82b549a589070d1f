// Where the process keeps its blobs (README, "Configuration"): the filesystem under DATA_DIR, or an
// S3-compatible bucket when BLOB_STORE is `s3://<bucket>[/<prefix>]`. Checked when the proxy and the
// web process start, so a wrong value stops them there rather than failing the first recording.
// Error messages name the variable; a value that may hold a secret is never repeated in them.
import path from 'node:path';

export interface S3Config {
  kind: 's3';
  bucket: string;
  /** Put before every key: `''` or `some/prefix/`. */
  prefix: string;
  /** An S3-compatible server (MinIO, R2, ...); unset: AWS. */
  endpoint?: string;
  region: string;
  /** Unset: the AWS SDK's default chain (AWS_ACCESS_KEY_ID, profiles, instance roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

export type BlobStoreConfig = { kind: 'fs'; root: string } | S3Config;

type Env = Record<string, string | undefined>;

const S3_ADDRESS = /^s3:\/\/([^/]*)(?:\/(.*))?$/;
/** S3's rule for bucket names: 3 to 63 lower-case letters, digits, dots and hyphens, a letter or digit at each end. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const PREFIX_PART = /^[A-Za-z0-9._-]+$/;
const REGION = /^[a-z0-9-]+$/;
const S3_SETTINGS = ['S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;

export function readBlobStoreConfig(env: Env = process.env): BlobStoreConfig {
  const value = env.BLOB_STORE?.trim() || 'fs';
  if (value === 'fs') {
    // S3 settings without an s3:// store would leave the blobs on local disk unnoticed.
    const stray = S3_SETTINGS.filter((name) => env[name]);
    if (stray.length > 0)
      throw new Error(`${stray.join(', ')} set, but BLOB_STORE is not an s3:// address: set BLOB_STORE=s3://<bucket>[/<prefix>] to use S3, or unset them`);
    return { kind: 'fs', root: path.join(path.resolve(/*turbopackIgnore: true*/ env.DATA_DIR ?? '.data'), 'blobs') };
  }
  const match = S3_ADDRESS.exec(value);
  // Credentials pasted into the address (s3://key:secret@bucket) must not reach a log.
  const shown = value.includes('@') ? 'a value with "@" (credentials go in S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY)' : `"${value}"`;
  if (!match) throw new Error(`BLOB_STORE must be "fs" or "s3://<bucket>[/<prefix>]", got ${shown}`);
  const [, bucket, rest = ''] = match as unknown as [string, string, string | undefined];
  if (!BUCKET.test(bucket)) throw new Error(`BLOB_STORE: the bucket name must be 3 to 63 lower-case letters, digits, dots and hyphens, got ${shown}`);
  const parts = rest.split('/').filter((part, i, all) => part !== '' || i !== all.length - 1);
  if (rest !== '' && parts.some((part) => !PREFIX_PART.test(part) || part === '.' || part === '..')) {
    throw new Error(`BLOB_STORE: the prefix after the bucket must be folder names of letters, digits and "._-" separated by single "/", got ${shown}`);
  }
  return {
    kind: 's3',
    bucket,
    prefix: rest === '' ? '' : `${parts.join('/')}/`,
    endpoint: readEndpoint(env.S3_ENDPOINT),
    region: readRegion(env.S3_REGION),
    credentials: readCredentials(env),
  };
}

/** Throws, naming the variable, when the blob store's settings are wrong: called as a process starts. */
export function checkBlobStoreConfig(env: Env = process.env): void {
  readBlobStoreConfig(env);
}

function readEndpoint(value: string | undefined): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error('S3_ENDPOINT must be an http:// or https:// address, e.g. http://127.0.0.1:9000');
  }
  if (url.username || url.password) throw new Error('S3_ENDPOINT must not hold credentials: put them in S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY');
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`S3_ENDPOINT must be an http:// or https:// address, got "${value}"`);
  return value;
}

function readRegion(value: string | undefined): string {
  const region = value?.trim() || 'us-east-1';
  if (!REGION.test(region)) throw new Error(`S3_REGION must be a region name such as us-east-1 (or "auto" for R2), got "${value}"`);
  return region;
}

function readCredentials(env: Env): S3Config['credentials'] {
  const accessKeyId = env.S3_ACCESS_KEY_ID;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY;
  if (!accessKeyId && !secretAccessKey) return undefined;
  if (!accessKeyId) throw new Error("S3_SECRET_ACCESS_KEY is set without S3_ACCESS_KEY_ID: set both, or neither to use the AWS SDK's default credentials");
  if (!secretAccessKey) throw new Error("S3_ACCESS_KEY_ID is set without S3_SECRET_ACCESS_KEY: set both, or neither to use the AWS SDK's default credentials");
  return { accessKeyId, secretAccessKey };
}

/** One line for the start log; never the credentials. */
export function describeBlobStore(config: BlobStoreConfig): string {
  if (config.kind === 'fs') return `filesystem (${config.root})`;
  return `s3://${config.bucket}/${config.prefix} at ${config.endpoint ?? `AWS ${config.region}`}`;
}
