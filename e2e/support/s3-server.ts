// A real S3-compatible server for tests: s3rver (S3's REST API over a directory) on a free loopback
// port, with one bucket, in a child process (s3rver-process.mjs says why). `env` is everything a
// process needs to keep its blobs there (README, "Configuration"), for the tests that start the
// proxy and the web process on it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

export interface S3Server {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** BLOB_STORE, S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY. */
  env: Record<string, string>;
  /** Stops the server (a store using it then fails) and removes its directory. */
  close(): Promise<void>;
}

/** s3rver knows one account, this access key id; it does not check V4 signatures, so any secret passes. */
const ACCESS_KEY_ID = 'S3RVER';
const SECRET_ACCESS_KEY = 'S3RVER';
const REGION = 'us-east-1';
const START_TIMEOUT_MS = 20_000;

export async function startS3Server(options: { bucket?: string } = {}): Promise<S3Server> {
  const bucket = options.bucket ?? 'blobs';
  const directory = await mkdtemp(path.join(os.tmpdir(), 'br-s3rver-'));
  const child = spawn(process.execPath, ['--openssl-legacy-provider', path.join(import.meta.dirname, 's3rver-process.mjs'), directory, bucket], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    await Promise.all([rm(directory, { recursive: true, force: true }), rm(`${directory}.incoming`, { recursive: true, force: true })]);
  };
  try {
    const endpoint = `http://127.0.0.1:${await portOf(child.stdout, exited)}`;
    return {
      endpoint,
      bucket,
      region: REGION,
      accessKeyId: ACCESS_KEY_ID,
      secretAccessKey: SECRET_ACCESS_KEY,
      env: { BLOB_STORE: `s3://${bucket}`, S3_ENDPOINT: endpoint, S3_REGION: REGION, S3_ACCESS_KEY_ID: ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: SECRET_ACCESS_KEY },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The port the child prints once it listens. */
async function portOf(stdout: NodeJS.ReadableStream, exited: Promise<unknown>): Promise<number> {
  const lines = createInterface({ input: stdout });
  const signal = AbortSignal.timeout(START_TIMEOUT_MS);
  const first = once(lines, 'line', { signal }).then(([line]) => (JSON.parse(line as string) as { port: number }).port);
  const died = exited.then(() => {
    throw new Error('s3rver exited before it listened');
  });
  died.catch(() => {}); // it also exits when closed, long after the race
  try {
    return await Promise.race([first, died]);
  } catch (error) {
    throw signal.aborted ? new Error(`s3rver did not listen within ${START_TIMEOUT_MS} ms`) : error;
  } finally {
    lines.close();
  }
}
